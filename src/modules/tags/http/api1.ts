// API 1: tag lists and tags (spec "API 1 operations": list, create, get, update, delete tag
// list; CONTRACT §6 paths, §8). Same use cases as API 2; `since` (a date or a date-time)
// returns changes after it, deletions as deleted-tag markers {id, isDeleted}.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DateTime, Nullable } from '../../../http/schema-helpers.ts';
import type { TagRoutesCore } from './api2.ts';
import { api1IdOf } from '../../../core/ids/api1-id.ts';
import { id1 } from '../../../http/api1/presenters.ts';
import { invalidInput } from '../../../core/errors.ts';
import type { TagListRecord } from '../core/ports.ts';
import { tagWriterOf, type ChangeResult, type TagData as CoreTagData, type TagChanges, type TagListInput } from '../index.ts';
import { actorOf } from '../../../http/auth.ts';
import { api1RefParser as ref } from '../../../http/refs.ts';
import * as S from '../../../http/api1/schemas.ts';
import { Detect, MetadataDefinition, TAG_BODY_LIMIT, TagDataApi1, TagDataApi1Update } from './schemas.ts';
import { sendWholeList, TagTextCache } from './tag-text-cache.ts';
import { reachFirst } from '../../../http/reach-first.ts';
import { api1TagJson, DeletedTag, Tag } from './api1-tag-json.ts';


const TagListData = Type.Object({
  name: Type.String(), description: Type.String(), color: Type.String(), pending: Type.Boolean(), metadataDefinitions: Type.Array(MetadataDefinition),
});
const TagList = Type.Object({
  projectId: Type.String(), parentId: Type.String(), parentUuid: Type.String(), id: Type.String(), type: Type.Literal('tagList'),
  createdAt: DateTime, createdBy: Nullable(Type.String()), updatedAt: DateTime, updatedBy: Nullable(Type.String()),
  data: TagListData, tagsVersion: Type.Integer(),
});
const TagListDataInput = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  color: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
  pending: Type.Optional(Type.Boolean()), // read-only: ignored
  metadataDefinitions: Type.Optional(Nullable(Type.Array(MetadataDefinition, { maxItems: 1000 }))),
}, { additionalProperties: false });

const changeFields = {
  insert: Type.Optional(Nullable(Type.Array(TagDataApi1, { maxItems: 100_000 }))),
  detect: Type.Optional(Nullable(Detect)),
  cleanRemovedMetadataIds: Type.Optional(Nullable(Type.Boolean())),
};
const CreateBody = Type.Object({ parentId: Type.String({ minLength: 1, maxLength: 200 }), data: Type.Object({ ...TagListDataInput.properties, name: Type.String({ minLength: 1, maxLength: 255 }) }), ...changeFields });
const UpdateBody = Type.Object({
  data: Type.Optional(Nullable(TagListDataInput)),
  update: Type.Optional(Nullable(Type.Record(Type.String({ maxLength: 200 }), TagDataApi1Update))),
  delete: Type.Optional(Nullable(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100_000 }))),
  ...changeFields,
});
const SinceQuery = Type.Object({ since: Type.Optional(Type.String({ maxLength: 64 })) });

/** `since`: a date (midnight UTC) or an RFC 3339 date-time. */
export function parseSince(v: string | undefined): Date | undefined {
  if (v === undefined || v === '') return undefined;
  const ok = /^\d{4}-\d{2}-\d{2}$/.test(v) || /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})$/.test(v);
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v);
  if (!ok || Number.isNaN(d.getTime())) throw invalidInput('since must be a date (YYYY-MM-DD) or a date-time (RFC 3339)', { field: 'since' });
  return d;
}

const sendJson = (reply: FastifyReply, text: string | Buffer) => reply.code(200).type('application/json; charset=utf-8').send(text);

export function tagRoutes(root: FastifyInstance, core: TagRoutesCore): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const actor = actorOf;
  const errors = { '4xx': S.Api1Error };
  const wholeLists = new TagTextCache(core.caches, 'api1-tag-text', core.config.tagTextCacheBytes);

  const tagList = (l: TagListRecord) => ({
    projectId: api1IdOf(l.projectId), parentId: api1IdOf(l.workzoneId), parentUuid: l.workzoneId, id: l.api1Id, type: 'tagList' as const,
    createdAt: l.createdAt.toISOString(), createdBy: id1(l.createdBy), updatedAt: l.updatedAt.toISOString(), updatedBy: id1(l.updatedBy),
    data: { name: l.name, description: l.description, color: l.color, pending: l.pending, metadataDefinitions: l.metadataDefinitions },
    tagsVersion: l.tagsVersion,
  });
  /** The TagList with the tags this request changed: created and updated ones, then deleted-tag markers. */
  const withTags = (r: ChangeResult) => {
    const w = tagWriterOf(api1TagJson, r.list);
    const tags = [...r.created.map(w), ...r.updated.map(w), ...r.deleted.map((id) => `{"id":"${api1IdOf(id)}","isDeleted":true}`)];
    const head = JSON.stringify(tagList(r.list));
    return `${head.slice(0, -1)},"tags":[${tags.join(',')}]}`;
  };
  const changes = (b: { insert?: unknown[] | null; detect?: { classes: string[]; fileIds: string[] } | null; cleanRemovedMetadataIds?: boolean | null }): TagChanges => ({
    insert: (b.insert ?? []) as CoreTagData[],
    detect: b.detect ? { classes: b.detect.classes, fileRefs: b.detect.fileIds.map((id) => ref('file', id)) } : null,
    cleanRemovedMetadataIds: b.cleanRemovedMetadataIds ?? false,
  });
  const listFields = (d: { name?: string; description?: string | null; color?: string | null; metadataDefinitions?: { id: string; name: string }[] | null }): TagListInput => ({
    name: d.name, description: d.description, color: d.color, metadataDefinitions: d.metadataDefinitions,
  });

  const A = '/accounts/:accountId/projects/:projectId/tag-lists';
  const PP = S.withParams('projectId');
  const LP = S.withParams('projectId', 'tagListId');
  const refs = (req: { params: { accountId: string; projectId: string } }) => [ref('account', req.params.accountId), ref('project', req.params.projectId)] as const;
  // Large bodies: the caller's reach on the account and project is checked before the body is read.
  const preParsing = reachFirst(core, (p) => [ref('account', p.accountId!), ref('project', p.projectId!)]);
  const WithTags = Type.Intersect([TagList, Type.Object({ tags: Type.Array(Type.Union([Tag, DeletedTag])) })]);

  app.get(A, {
    schema: { summary: 'List tag lists (since: only those updated after it)', operationId: 'listTagLists', tags: ['tag lists'], params: PP, querystring: SinceQuery, response: { 200: Type.Array(TagList), ...errors } },
  }, async (req) => (await core.tagLists.listTagLists(actor(req), ...refs(req), parseSince(req.query.since))).map(tagList));

  app.post(A, {
    bodyLimit: TAG_BODY_LIMIT,
    preParsing,
    schema: { summary: 'Create tag list', operationId: 'createTagList', tags: ['tag lists'], params: PP, body: CreateBody, response: { 200: WithTags, ...errors } },
  }, async (req, reply) => {
    const b = req.body;
    const r = await core.tagLists.createTagList(actor(req), ...refs(req), { ...listFields(b.data), workzoneRef: ref('workzone', b.parentId) }, changes(b));
    return sendJson(reply, withTags(r));
  });

  app.get(`${A}/:tagListId`, {
    schema: {
      summary: 'Get tag list: its tags (since: the changes after it, deletions as deleted-tag markers)', operationId: 'getTagList', tags: ['tag lists'],
      params: LP, querystring: SinceQuery, response: { 200: Type.Array(Type.Union([Tag, DeletedTag])), ...errors },
    },
  }, async (req, reply) => {
    const since = parseSince(req.query.since);
    const listRef = ref('tag-list', req.params.tagListId);
    if (since) return sendJson(reply, `[${(await core.tagLists.getTagsJson(actor(req), ...refs(req), listRef, { since }, 1)).json}]`);
    // The whole list: kept per node, patched with the changes since the kept version.
    const list = await core.tagLists.openWholeList(actor(req), ...refs(req), listRef);
    return sendWholeList(reply, wholeLists, list, '', async (filter, onRun) => {
      const v = await core.tagLists.streamTagTexts(actor(req), ...refs(req), listRef, filter, 1, onRun);
      return { version: v.version, variant: '' };
    });
  });

  app.put(`${A}/:tagListId`, {
    bodyLimit: TAG_BODY_LIMIT,
    preParsing,
    schema: { summary: 'Update tag list: its data, and tags inserted, updated and deleted (one transaction)', operationId: 'updateTagList', tags: ['tag lists'], params: LP, body: UpdateBody, response: { 200: WithTags, ...errors } },
  }, async (req, reply) => {
    const b = req.body;
    const update = Object.entries(b.update ?? {}).map(([id, data]) => ({ ref: ref('tag', id), data: data as CoreTagData, keepMetadata: true }));
    const r = await core.tagLists.updateTagList(actor(req), ...refs(req), ref('tag-list', req.params.tagListId), b.data ? listFields(b.data) : null, {
      ...changes(b), update, delete: (b.delete ?? []).map((id) => ref('tag', id)),
    }, 'patch');
    return sendJson(reply, withTags(r));
  });

  app.delete(`${A}/:tagListId`, {
    schema: { summary: 'Delete tag list: answers a deleted-tag marker per tag it held', operationId: 'deleteTagList', tags: ['tag lists'], params: LP, response: { 200: Type.Array(DeletedTag), ...errors } },
  }, async (req, reply) => {
    const ids = await core.tagLists.deleteTagLists(actor(req), ...refs(req), [ref('tag-list', req.params.tagListId)]);
    return sendJson(reply, `[${ids.map((id) => `{"id":"${api1IdOf(id)}","isDeleted":true}`).join(',')}]`);
  });
}
