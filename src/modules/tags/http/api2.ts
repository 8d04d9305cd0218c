// API 2: tag lists and tags (vendor "Tag List", "Tag"; CONTRACT §6 "tag lists", §8). BETA.
// Tag bodies are written as JSON text from the stored TagData text (no per-tag parse or
// schema serialisation), so a 50,000-tag list costs little more than its bytes.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { DateTime, Nullable } from '../../../http/schema-helpers.ts';
import type { KernelConfig } from '../../../kernel-config.ts';
import type { CacheRegistry } from '../../../core/cache/registry.ts';
import type { Reach } from '../../projects/index.ts';
import type { EntityRef, UrnType } from '../../../core/ids/urn.ts';
import type { TagListRecord, TagRow } from '../core/ports.ts';
import { AI_DETECTION_CLASSES, tagWriterOf, type TagJsonDescription, type TagLists, type ChangeResult, type TagData as CoreTagData, type TagListInput } from '../index.ts';
import { api2Kit } from '../../../http/api2/route-kit.ts';
import * as S from '../../../http/api2/schemas.ts';
import { Detect, MetadataDefinition, TAG_BODY_LIMIT, TagData } from './schemas.ts';
import { sendWholeList, TagTextCache } from './tag-text-cache.ts';
import { reachFirst } from '../../../http/reach-first.ts';
import { api2TagJson, Tag } from './api2-tag-json.ts';


const AttachmentPage = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255 }), index: Type.Optional(Nullable(Type.Integer())), scale: Type.Optional(Nullable(Type.Number())),
  width: Type.Optional(Nullable(Type.Number())), height: Type.Optional(Nullable(Type.Number())),
  name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))), hidden: Type.Optional(Nullable(Type.Boolean())),
}, { additionalProperties: false });
const AttachmentInput = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255 }), name: Type.String({ minLength: 1, maxLength: 255 }),
  blob: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))), pages: Type.Array(AttachmentPage, { maxItems: 10000 }),
}, { additionalProperties: false });

export const TagList = Type.Object({
  id: Type.String(), urn: Type.String(), api1Id: Type.String(), type: Type.Literal('tag-list'), projectId: Type.String(),
  workzoneId: Type.String(), tagListType: Type.String(), name: Type.String(), description: Type.String(), color: Type.String(),
  metadataDefinition: Type.Array(MetadataDefinition), attachments: Nullable(Type.Array(Type.Unknown())), pending: Type.Boolean(),
  createdBy: Nullable(Type.String()), createdAt: DateTime, updatedBy: Nullable(Type.String()), updatedAt: DateTime, tagsVersion: Type.Integer(),
});

const TagListBody = Type.Object({
  workzoneId: S.RefString,
  tagListType: Type.String({ minLength: 1, maxLength: 36, description: 'Required (vendor tagListCreate/tagListUpdate): how the webapp shows the list, `2d` or `3d`. Lists API 1 creates are `3d`.' }),
  name: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  color: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
  metadataDefinition: Type.Optional(Nullable(Type.Array(MetadataDefinition, { maxItems: 1000 }))),
  attachments: Type.Optional(Nullable(Type.Array(AttachmentInput, { maxItems: 1000 }))),
});

const BulkTags = Type.Object({
  create: Type.Optional(Nullable(Type.Array(Type.Object({ data: TagData }), { maxItems: 100_000 }))),
  update: Type.Optional(Nullable(Type.Array(Type.Object({ id: S.RefString, data: TagData }), { maxItems: 100_000 }))),
  delete: Type.Optional(Nullable(Type.Array(S.RefString, { maxItems: 100_000 }))),
});

const BulkMove = Type.Array(Type.Object({
  sourceTagListId: S.RefString,
  tagsIds: Type.Array(S.RefString, { maxItems: 100_000 }),
  metadataIdMapping: Type.Optional(Nullable(Type.Array(Type.Object({
    sourceId: Type.String({ minLength: 1, maxLength: 255 }), targetId: Type.String({ minLength: 1, maxLength: 255 }),
  }), { maxItems: 1000 }))),
}), { maxItems: 1000 });

type AttachmentIn = { id: string; name: string; blob?: string | null; pages: Record<string, unknown>[] };
/** Attachments as the vendor answers them: blob present (null when none), null page fields left out. */
const attachmentsOf = (a: AttachmentIn[] | null | undefined): unknown[] | null =>
  a ? a.map((x) => ({
    id: x.id, name: x.name, blob: x.blob ?? null,
    pages: x.pages.map((p) => Object.fromEntries(Object.entries({ ...p, index: p.index ?? 0 }).filter(([, v]) => v !== null))),
  })) : null;

/** Tags as a JSON array, written as `description` describes them. */
export const tagArray = (description: TagJsonDescription, list: TagListRecord, rows: readonly TagRow[]): string => {
  const w = tagWriterOf(description, list);
  const parts = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) parts[i] = w(rows[i]!);
  return `[${parts.join(',')}]`;
};

/** A tag list as API 2 shows it (vendor TagList); the pnid module answers with it too. */
export const tagListPresenter = (urn: (type: UrnType, id: string) => string, opt: (type: UrnType, id: string | null) => string | null) => (l: TagListRecord) => ({
    id: urn('tag-list', l.id), urn: urn('tag-list', l.id), api1Id: l.api1Id, type: 'tag-list' as const, projectId: urn('project', l.projectId),
    workzoneId: urn('workzone', l.workzoneId), tagListType: l.tagListType, name: l.name, description: l.description, color: l.color,
    metadataDefinition: l.metadataDefinitions, attachments: l.attachments, pending: l.pending, createdBy: opt('user', l.createdBy),
    createdAt: l.createdAt.toISOString(), updatedBy: opt('user', l.updatedBy), updatedAt: l.updatedAt.toISOString(), tagsVersion: l.tagsVersion,
  });

const sendJson = (reply: FastifyReply, text: string | Buffer, code = 200) => reply.code(code).type('application/json; charset=utf-8').send(text);

/** What the tag routes call: the tag lists' use cases, reach (checked before a large body), the node's caches and settings. */
export interface TagRoutesCore {
  config: Pick<KernelConfig, 'urnNamespace' | 'publicUrl' | 'storageUrl' | 'tagTextCacheBytes'>;
  caches: CacheRegistry;
  tagLists: TagLists;
  reach: Reach;
}

export function tagRoutes(root: FastifyInstance, core: TagRoutesCore): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ns, ref, urn, opt, actor, errors, beta, refs } = api2Kit(core);
  const wholeLists = new TagTextCache(core.caches, 'api2-tag-text', core.config.tagTextCacheBytes);
  const tagJson = api2TagJson(ns);

  const tagList = tagListPresenter(urn, opt);
  const input = (b: Static<typeof TagListBody>): TagListInput => ({
    workzoneRef: ref('workzone', b.workzoneId), tagListType: b.tagListType, name: b.name, description: b.description ?? null,
    color: b.color ?? null, metadataDefinitions: b.metadataDefinition ?? null, attachments: attachmentsOf(b.attachments as AttachmentIn[] | null | undefined),
  });
  const bulkAnswer = (r: ChangeResult) => {
    const w = tagWriterOf(tagJson, r.list);
    return `{"tagsVersion":${r.list.tagsVersion},"created":[${r.created.map(w).join(',')}],"updated":[${r.updated.map(w).join(',')}],"deleted":${JSON.stringify(r.deleted.map((id) => urn('tag', id)))}}`;
  };

  const A = '/accounts/:accountRef/projects/:projectRef/tag-lists';
  const PP = S.withParams('projectRef');
  const LP = S.withParams('projectRef', 'tagListRef');
  const listRef = (req: { params: { tagListRef: string } }): EntityRef => ref('tag-list', req.params.tagListRef);
  // Large bodies: the caller's reach on the account and project is checked before the body is read.
  const preParsing = reachFirst(core, (p) => [ref('account', p.accountRef!), ref('project', p.projectRef!)]);

  const classes = AI_DETECTION_CLASSES.map((c) => ({ ...c }));
  app.get('/values/ai-detection-classes', {
    schema: { summary: 'Classes an AI detection may look for', operationId: 'listAIDetectionClasses', ...beta('Tag List'), response: { 200: Type.Array(Type.Object({ name: Type.String(), category: Type.String() })), ...errors } },
  }, async () => classes);

  app.get(A, {
    schema: { summary: 'Tag lists of the project on the work zones where the caller may read tags', operationId: 'getTagsOnProject', ...beta('Tag List'), params: PP, response: { 200: Type.Array(TagList), ...errors } },
  }, async (req) => (await core.tagLists.listTagLists(actor(req), ...refs(req))).map(tagList));

  app.post(A, {
    schema: { summary: 'Create a tag list', operationId: 'createTagList', ...beta('Tag List'), params: PP, body: TagListBody, response: { 201: TagList, ...errors } },
  }, async (req, reply) => {
    const r = await core.tagLists.createTagList(actor(req), ...refs(req), input(req.body));
    return reply.code(201).send(tagList(r.list));
  });

  app.post(`${A}/bulk-update`, {
    schema: {
      summary: 'Overwrite several tag lists (all or nothing)', operationId: 'bulkUpdateTagLists', ...beta('Tag List'), params: PP,
      body: Type.Array(Type.Object({ id: S.RefString, ...TagListBody.properties }), { maxItems: 1000 }), response: { 200: Type.Array(TagList), ...errors },
    },
  }, async (req) => {
    const items = (req.body as (Static<typeof TagListBody> & { id: string })[]).map((b) => ({ ref: ref('tag-list', b.id), input: input(b) }));
    return (await core.tagLists.bulkUpdateTagLists(actor(req), ...refs(req), items)).map(tagList);
  });

  app.post(`${A}/bulk-delete`, {
    schema: { summary: 'Delete several tag lists (all or nothing)', operationId: 'bulkDeleteTagLists', ...beta('Tag List'), params: PP, body: Type.Object({ ids: Type.Array(S.RefString, { maxItems: 1000 }) }), response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.tagLists.deleteTagLists(actor(req), ...refs(req), req.body.ids.map((id) => ref('tag-list', id)));
    return reply.code(204).send(null);
  });

  app.get(`${A}/:tagListRef`, {
    schema: { summary: 'A tag list', operationId: 'getTagList', ...beta('Tag List'), params: LP, response: { 200: TagList, ...errors } },
  }, async (req) => tagList(await core.tagLists.getTagList(actor(req), ...refs(req), listRef(req))));

  app.put(`${A}/:tagListRef`, {
    schema: { summary: 'Overwrite a tag list (a missing field is erased)', operationId: 'updateTagList', ...beta('Tag List'), params: LP, body: TagListBody, response: { 200: TagList, ...errors } },
  }, async (req) => tagList((await core.tagLists.updateTagList(actor(req), ...refs(req), listRef(req), input(req.body), {}, 'put')).list));

  app.delete(`${A}/:tagListRef`, {
    schema: { summary: 'Delete a tag list and its tags', operationId: 'deleteTagList', ...beta('Tag List'), params: LP, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.tagLists.deleteTagLists(actor(req), ...refs(req), [listRef(req)]);
    return reply.code(204).send(null);
  });

  app.post(`${A}/:tagListRef/ai-detection`, {
    schema: {
      summary: 'Launch an AI detection: the list is pending until it ends', operationId: 'tagListAiDetection', ...beta('Tag List'), params: LP,
      body: Type.Object({ classes: Detect.properties.classes, filesIds: Detect.properties.fileIds }), response: { 200: TagList, ...errors },
    },
  }, async (req) => tagList(await core.tagLists.requestDetection(actor(req), ...refs(req), listRef(req), { classes: req.body.classes, fileRefs: req.body.filesIds.map((f) => ref('file', f)) })));

  app.get(`${A}/:tagListRef/tags`, {
    schema: {
      summary: 'Tags of a list; with afterVersion > 0, every change after that version (deleted tags with isDeleted)', operationId: 'getTagsOnList',
      ...beta('Tag'), params: LP, querystring: Type.Object({ afterVersion: Type.Optional(Type.Integer()) }), response: { 200: Type.Array(Tag), ...errors },
    },
  }, async (req, reply) => {
    const after = req.query.afterVersion ?? 0;
    if (after > 0) {
      const v = await core.tagLists.getTagsJson(actor(req), ...refs(req), listRef(req), { afterVersion: after }, 2);
      return sendJson(reply, `[${v.json}]`);
    }
    // The whole list: kept per node, patched with the changes since the kept version.
    const list = await core.tagLists.openWholeList(actor(req), ...refs(req), listRef(req));
    return sendWholeList(reply, wholeLists, list, list.tagListType, async (filter, onRun) => {
      const v = await core.tagLists.streamTagTexts(actor(req), ...refs(req), listRef(req), filter, 2, onRun);
      return { version: v.version, variant: v.list.tagListType };
    });
  });

  app.post(`${A}/:tagListRef/tags/bulk`, {
    bodyLimit: TAG_BODY_LIMIT,
    preParsing,
    schema: {
      summary: 'Create, update and delete tags (all or nothing)', operationId: 'bulkTags', ...beta('Tag'), params: LP, body: BulkTags,
      response: { 200: Type.Object({ tagsVersion: Type.Integer(), created: Type.Array(Tag), updated: Type.Array(Tag), deleted: Type.Array(Type.String()) }), ...errors },
    },
  }, async (req, reply) => {
    const b = req.body;
    const r = await core.tagLists.bulkTags(actor(req), ...refs(req), listRef(req), {
      insert: (b.create ?? []).map((c) => c.data as CoreTagData),
      update: (b.update ?? []).map((u) => ({ ref: ref('tag', u.id), data: u.data as CoreTagData })),
      delete: (b.delete ?? []).map((d) => ref('tag', d)),
    });
    return sendJson(reply, bulkAnswer(r));
  });

  app.post(`${A}/:tagListRef/tags/bulk-move`, {
    bodyLimit: TAG_BODY_LIMIT,
    preParsing,
    schema: {
      summary: 'Move tags from source lists into this one (sources keep them as deleted)', operationId: 'bulkMoveTags', ...beta('Tag'), params: LP, body: BulkMove,
      response: { 200: Type.Array(Type.Object({ tagList: TagList, updatedTags: Type.Array(Tag) })), ...errors },
    },
  }, async (req, reply) => {
    const views = await core.tagLists.moveTags(actor(req), ...refs(req), listRef(req), req.body.map((it) => ({
      sourceRef: ref('tag-list', it.sourceTagListId), tagRefs: it.tagsIds.map((t) => ref('tag', t)), metadataIdMapping: it.metadataIdMapping,
    })));
    return sendJson(reply, `[${views.map((v) => `{"tagList":${JSON.stringify(tagList(v.list))},"updatedTags":${tagArray(tagJson, v.list, v.rows)}}`).join(',')}]`);
  });
}
