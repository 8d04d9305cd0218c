// Tag lists and their tags (spec API 1 tag-list operations; vendor API 2 TagList, Tag and
// the bulk operations): every request is one transaction that locks the subscription's
// tag counter and the lists it changes, raises each changed list's tagsVersion once,
// stamps the changed tags with it, and leaves tombstones for deletions.
import { DomainError, invalidInput, notFound } from '../errors.ts';
import { type EntityRef, refValue } from '../ids/urn.ts';
import { uuidOfApi1Id } from '../ids/api1-id.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { Repos, Store } from '../ports/repositories.ts';
import type { MetadataDefinition, TagFilter, TagTextRun, TagListRecord, TagRow, TagWrite } from '../ports/tags.ts';
import type { Permission } from '../permissions/catalog.ts';
import { forbidden, type Actor } from '../permissions/authorizer.ts';
import { lockProjectMembership, requireMember, type ProjectAccess, type ProjectScope } from '../projects/project-access.ts';
import { requiredName, subscriptionNotActive } from '../projects/projects.ts';
import type { TagTexts } from './tag-texts.ts';
import type { JobRunner } from '../jobs/job-runner.ts';
import { AI_DETECTION_CLASS_NAMES } from './ai-detection-classes.ts';
import {
  MAX_TAGS_PER_LIST, checkColor, checkMetadataDefinitions, cleanMetadata, normaliseTagData, remapMetadata, tooManyTags, type TagData,
} from './tag-data.ts';

export const DETECT_JOB = 'tag-detection';
const READ: Permission = 'workzone:tags:read';
const WRITE: Permission = 'workzone:tags:write';

export interface DetectInput {
  classes: string[];
  /** The scans to look in (vendor filesIds). */
  fileRefs: EntityRef[];
}

/** Vendor tagListAiDetection: on the work zones of the scans, besides tags:write on the list's. */
const SCAN_NEEDS: Permission[] = ['workzone:reality-data:read', 'workzone:export-jobs-reality-data:write'];

/** Fields of a list: API 2 PUT gives all (missing = erased), API 1 `data` only some. */
export interface TagListInput {
  workzoneRef?: EntityRef;
  tagListType?: string | null;
  name?: string;
  description?: string | null;
  color?: string | null;
  metadataDefinitions?: MetadataDefinition[] | null;
  attachments?: unknown[] | null;
}

export interface TagChanges {
  insert?: TagData[];
  /** keepMetadata: API 1 updates carry TagData without metadata, so the stored metadata stays. */
  update?: { ref: EntityRef; data: TagData; keepMetadata?: boolean }[];
  delete?: EntityRef[];
  cleanRemovedMetadataIds?: boolean;
  detect?: DetectInput | null;
}

export interface ChangeResult {
  list: TagListRecord;
  created: TagRow[];
  updated: TagRow[];
  deleted: string[];
}

export interface TagsView {
  list: TagListRecord;
  rows: TagRow[];
}

export const tagListPending = (list: TagListRecord) =>
  new DomainError('conflict', 'tag-list-pending', 'The tag list is pending (an AI detection is running): it cannot be changed until it ends', {
    tagListId: list.id,
  });

export const capacityExceededTag = (subscriptionId: string, capacity: number) =>
  new DomainError('invalid', 'capacity-exceeded-tag', `The subscription's tag capacity (${capacity}) would be exceeded`, {
    subscriptionId, tagCapacity: capacity,
  });

const tagUuid = (ref: EntityRef): string | null => ('uuid' in ref ? ref.uuid : uuidOfApi1Id(ref.api1Id));

export function createTagLists(deps: { store: Store; clock: Clock; ids: Ids; access: ProjectAccess; jobs: JobRunner; tagTexts: TagTexts }) {
  const { store, clock, ids, access, jobs, tagTexts } = deps;

  async function listIn(repos: Repos, scope: ProjectScope, ref: EntityRef): Promise<TagListRecord> {
    const l = await repos.tags.listByRef(scope.project.id, ref);
    if (!l) throw notFound('tag-list', refValue(ref));
    return l;
  }

  async function zoneIn(repos: Repos, scope: ProjectScope, ref: EntityRef): Promise<string> {
    const w = await repos.workzones.byRef(scope.project.id, ref);
    if (!w) throw notFound('workzone', refValue(ref));
    return w.id;
  }

  /** The subscription's counter lock: every tag write of the subscription is serialised, so capacity holds on every node. */
  async function lockSubscription(repos: Repos, scope: ProjectScope) {
    const project = await repos.projects.byRef(scope.project.accountId, { uuid: scope.project.id });
    if (!project) throw notFound('project', scope.project.id);
    const sub = await repos.subscriptions.byId(project.subscriptionId);
    if (!sub) throw notFound('subscription', project.subscriptionId);
    if (!sub.isActive) throw subscriptionNotActive(sub);
    await repos.locks.exclusive([`subscription-tags:${sub.id}`]);
    return sub;
  }

  async function checkCapacity(repos: Repos, sub: { id: string; tagCapacity: number }, added: number) {
    if (added <= 0) return;
    const used = await repos.tags.countForSubscription(sub.id);
    if (used + added > sub.tagCapacity) throw capacityExceededTag(sub.id, sub.tagCapacity);
  }

  /** Re-reads the list under its row lock; refuses a pending one. */
  async function lockForChange(repos: Repos, scope: ProjectScope, id: string, ref?: EntityRef): Promise<TagListRecord> {
    const l = await repos.tags.lockList(id);
    if (!l || l.projectId !== scope.project.id) throw notFound('tag-list', ref ? refValue(ref) : id);
    if (l.pending) throw tagListPending(l);
    return l;
  }

  /** Known classes; scans of the project the caller may read and export from. Answers the scans' ids. */
  async function checkDetect(repos: Repos, scope: ProjectScope, d: DetectInput): Promise<{ classes: string[]; fileIds: string[] }> {
    if (!d.classes.length) throw invalidInput('detect.classes must name at least one class', { field: 'classes' });
    for (const c of d.classes) if (!AI_DETECTION_CLASS_NAMES.has(c)) throw invalidInput(`Unknown AI detection class ${c}`, { field: 'classes', class: c });
    if (!d.fileRefs.length) throw invalidInput('detect.fileIds must name at least one scan', { field: 'filesIds' });
    const fileIds = new Set<string>();
    for (const ref of d.fileRefs) {
      const f = await repos.files.byRef(scope.project.id, ref);
      if (!f) throw notFound('file', refValue(ref));
      if (f.category !== 'scan') throw invalidInput(`File ${f.id} is not a scan (${f.category})`, { field: 'filesIds', fileId: f.id });
      access.requireOnWorkzone(scope, f.workzoneId, SCAN_NEEDS, 'update-tag-list-forbidden');
      fileIds.add(f.id);
    }
    return { classes: [...new Set(d.classes)], fileIds: [...fileIds] };
  }

  /** Applies tag changes to a locked list (all or nothing: any failure throws before the transaction commits). */
  async function applyChanges(
    repos: Repos,
    actor: Actor,
    scope: ProjectScope,
    sub: { id: string; tagCapacity: number },
    list: TagListRecord,
    c: TagChanges,
    opts: { definitionsChanged?: boolean } = {},
  ): Promise<ChangeResult> {
    const defined = new Set(list.metadataDefinitions.map((d) => d.id));
    const inserts: TagWrite[] = (c.insert ?? []).map((data, i) => {
      const id = ids.uuid();
      const d = normaliseTagData(data, { index: i }, defined);
      return { id, data: JSON.stringify(d.id === undefined ? { ...d, id } : d) };
    });
    const updateIds: string[] = [];
    for (const u of c.update ?? []) {
      const id = tagUuid(u.ref);
      if (!id) throw notFound('tag', refValue(u.ref));
      updateIds.push(id);
    }
    if (new Set(updateIds).size !== updateIds.length) throw invalidInput('A tag is updated twice in one request', { field: 'update' });
    const deleteIds: string[] = [];
    for (const ref of c.delete ?? []) {
      const id = tagUuid(ref);
      if (!id) throw notFound('tag', refValue(ref));
      deleteIds.push(id);
    }
    const touched = [...new Set([...updateIds, ...deleteIds])];
    const existing = new Map((touched.length ? await repos.tags.tagsByIds(list.id, touched) : []).map((t) => [t.id, t]));
    for (const id of touched) {
      const t = existing.get(id);
      if (!t || t.deletedAt) throw notFound('tag', id);
    }
    const deleting = new Set(deleteIds);
    const updates: TagWrite[] = (c.update ?? []).map((u, i) => {
      const id = updateIds[i]!;
      if (deleting.has(id)) throw invalidInput(`Tag ${id} is both updated and deleted`, { field: 'update', tagId: id });
      let data = u.data;
      if (u.keepMetadata) {
        const { metadata: _drop, ...rest } = data;
        const old = JSON.parse(existing.get(id)!.data) as TagData;
        data = old.metadata !== undefined ? { ...rest, metadata: old.metadata } : rest;
      }
      const d = normaliseTagData(data, { index: i }, u.keepMetadata ? null : defined);
      return { id, data: JSON.stringify(d.id === undefined ? { ...d, id } : d) };
    });
    // cleanRemovedMetadataIds: strip metadata whose definition is gone from every other live tag.
    if (c.cleanRemovedMetadataIds && opts.definitionsChanged) {
      const skip = new Set([...updateIds, ...deleteIds]);
      for (const t of await repos.tags.tags(list.id, { all: true })) {
        if (skip.has(t.id)) continue;
        const cleaned = cleanMetadata(JSON.parse(t.data) as TagData, defined);
        if (cleaned) {
          updates.push({ id: t.id, data: JSON.stringify(cleaned) });
          existing.set(t.id, t);
        }
      }
    }
    const count = list.tagCount + inserts.length - deleteIds.length;
    if (count > MAX_TAGS_PER_LIST) throw tooManyTags(list.id, count);
    await checkCapacity(repos, sub, inserts.length - deleteIds.length);
    const changed = inserts.length + updates.length + deleteIds.length > 0;
    const version = changed || opts.definitionsChanged ? list.tagsVersion + 1 : list.tagsVersion;
    const now = clock.now();
    const detect = c.detect ? await checkDetect(repos, scope, c.detect) : null;
    if (changed) {
      await repos.tags.deleteTags(list.id, deleteIds, version, actor.userId, now);
      await repos.tags.updateTags(list.id, updates, version, actor.userId, now);
      const shapes = tagTexts.shapesOf(list);
      await repos.tags.insertTags(list.id, inserts, version, actor.userId, now, shapes);
      // Inserted rows were written with their text; updated and deleted ones get theirs here.
      if (updates.length || deleteIds.length) await repos.tags.storeTagText(list.id, shapes, { version });
    }
    if (changed || opts.definitionsChanged || detect) {
      await repos.tags.touchList(list.id, { version, tagCount: count, pending: !!detect, by: actor.userId, now });
    }
    if (detect) {
      await jobs.enqueue(repos, {
        kind: DETECT_JOB,
        payload: { tagListId: list.id, projectId: list.projectId, classes: detect.classes, fileIds: detect.fileIds, userId: actor.userId },
        subjects: [`tag-list:${list.id}`],
        createdBy: actor.userId,
      });
    }
    // The written rows as the store now holds them (no read back of thousands of tags).
    const row = (t: TagWrite, created: { at: Date; by: string | null }): TagRow => ({
      id: t.id, listId: list.id, data: t.data, version, createdAt: created.at, createdBy: created.by, updatedAt: now, updatedBy: actor.userId,
      deletedAt: null, deletedBy: null,
    });
    return {
      list: (await repos.tags.listById(list.id))!,
      created: inserts.map((t) => row(t, { at: now, by: actor.userId })),
      updated: updates.map((t) => {
        const old = existing.get(t.id)!;
        return row(t, { at: old.createdAt, by: old.createdBy });
      }),
      deleted: deleteIds,
    };
  }

  /** The list's fields after an API 2 overwrite (`put`) or an API 1 patch. */
  async function nextFields(repos: Repos, scope: ProjectScope, list: TagListRecord | null, input: TagListInput, mode: 'put' | 'patch') {
    const keep = <T>(v: T | undefined, old: T, dflt: T): T => (v !== undefined ? v : mode === 'patch' && list ? old : dflt);
    const workzoneId = input.workzoneRef ? await zoneIn(repos, scope, input.workzoneRef) : list?.workzoneId;
    if (!workzoneId) throw invalidInput('workzoneId is required', { field: 'workzoneId' });
    const name = input.name !== undefined ? requiredName(input.name) : list?.name;
    if (name === undefined) throw invalidInput('name is required', { field: 'name' });
    if (name.length > 255) throw invalidInput('name is longer than 255 characters', { field: 'name' });
    return {
      workzoneId,
      tagListType: keep(input.tagListType ?? undefined, list?.tagListType ?? '3d', list?.tagListType ?? '3d') || '3d',
      name,
      description: keep(input.description ?? undefined, list?.description ?? '', mode === 'patch' ? (list?.description ?? '') : ''),
      color: checkColor(keep(input.color ?? undefined, list?.color ?? null, null)),
      metadataDefinitions: checkMetadataDefinitions(keep(input.metadataDefinitions ?? undefined, list?.metadataDefinitions ?? [], [])),
      attachments: keep(input.attachments === null ? undefined : input.attachments, list?.attachments ?? null, null),
    };
  }

  const sameDefinitions = (a: MetadataDefinition[], b: MetadataDefinition[]) =>
    a.length === b.length && a.every((d, i) => d.id === b[i]!.id && d.name === b[i]!.name);

  async function updateOne(
    repos: Repos,
    actor: Actor,
    scope: ProjectScope,
    sub: { id: string; tagCapacity: number },
    ref: EntityRef,
    input: TagListInput | null,
    changes: TagChanges,
    mode: 'put' | 'patch',
  ): Promise<ChangeResult> {
    const found = await listIn(repos, scope, ref);
    access.requireOnWorkzone(scope, found.workzoneId, WRITE, 'update-tag-list-forbidden');
    // A work zone named by the fields cannot be deleted until this commits (zone deletions take
    // this lock); taken before the list's row lock, as a zone deletion takes them in that order.
    if (input) await lockProjectMembership(repos, scope.project.id);
    let list = await lockForChange(repos, scope, found.id, ref);
    const typeBefore = list.tagListType;
    let definitionsChanged = false;
    if (input) {
      const f = await nextFields(repos, scope, list, input, mode);
      // Moving the list to another zone needs tags:write there too (vendor updateTagList).
      if (f.workzoneId !== list.workzoneId) access.requireOnWorkzone(scope, f.workzoneId, WRITE, 'update-tag-list-forbidden');
      definitionsChanged = !sameDefinitions(f.metadataDefinitions, list.metadataDefinitions);
      await repos.tags.updateList(list.id, f, actor.userId, clock.now());
      list = (await repos.tags.listById(list.id))!;
    }
    const result = await applyChanges(repos, actor, scope, sub, list, changes, { definitionsChanged });
    // Every tag's stored text names the list's type: a new type rewrites the rest of them.
    if (list.tagListType !== typeBefore) await repos.tags.storeTagText(list.id, tagTexts.shapesOf(list), 'stale');
    return result;
  }

  const kickIf = (c: TagChanges | undefined) => {
    if (c?.detect) jobs.kick();
  };

  return {
    /** Lists on the zones where the caller holds tags:read (API 1 `since`: only those updated after it). */
    async listTagLists(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, since?: Date): Promise<TagListRecord[]> {
      const scope = await access.project(actor, accountRef, projectRef);
      requireMember(scope);
      const zones = await store.repos.workzones.listByProject(scope.project.id);
      if (!zones.some((z) => scope.workzone(z.id).has(READ))) throw forbidden('list-tag-lists-forbidden', [READ]);
      const lists = await store.repos.tags.listsOfProject(scope.project.id, since);
      return lists.filter((l) => scope.workzone(l.workzoneId).has(READ));
    },

    async getTagList(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef): Promise<TagListRecord> {
      const scope = await access.project(actor, accountRef, projectRef);
      requireMember(scope);
      const list = await listIn(store.repos, scope, ref);
      access.requireOnWorkzone(scope, list.workzoneId, READ, 'view-tag-list-forbidden');
      return list;
    },

    /** Live tags (`all`), or every change after a version or since a date, tombstones included. */
    async getTags(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef, filter: TagFilter): Promise<TagsView> {
      const scope = await access.project(actor, accountRef, projectRef);
      requireMember(scope);
      const list = await listIn(store.repos, scope, ref);
      access.requireOnWorkzone(scope, list.workzoneId, READ, 'view-tag-list-forbidden');
      return { list, rows: await store.repos.tags.tags(list.id, filter) };
    },

    /**
     * getTags written as JSON text by the store in one query (`shape` is the presentation's),
     * so a 50,000-tag list costs no per-tag work here: the comma-joined tags, no brackets.
     */
    async getTagsJson(
      actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef, filter: TagFilter, generation: 1 | 2,
    ): Promise<{ list: TagListRecord; version: number; json: string }> {
      const scope = await access.project(actor, accountRef, projectRef);
      requireMember(scope);
      const list = await listIn(store.repos, scope, ref);
      access.requireOnWorkzone(scope, list.workzoneId, READ, 'view-tag-list-forbidden');
      return { list, ...(await store.repos.tags.renderTags(list.id, filter, tagTexts.shapeOf(generation, list))) };
    },

    /**
     * getTagsJson in runs handed to `onRun` as they are read (repo streamTagTexts), for the
     * whole-list text sent while it is read, kept per node and patched with later changes.
     * Access is checked before the first run.
     */
    async streamTagTexts(
      actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef, filter: TagFilter, generation: 1 | 2,
      onRun: (run: TagTextRun) => void,
    ): Promise<{ list: TagListRecord; version: number }> {
      const scope = await access.project(actor, accountRef, projectRef);
      requireMember(scope);
      const list = await listIn(store.repos, scope, ref);
      access.requireOnWorkzone(scope, list.workzoneId, READ, 'view-tag-list-forbidden');
      return { list, ...(await store.repos.tags.streamTagTexts(list.id, filter, tagTexts.shapeOf(generation, list), onRun)) };
    },

    async createTagList(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, input: TagListInput, changes: TagChanges = {}): Promise<ChangeResult> {
      const scope = await access.project(actor, accountRef, projectRef);
      if (!input.workzoneRef) throw invalidInput('workzoneId is required', { field: 'workzoneId' });
      const zoneId = await zoneIn(store.repos, scope, input.workzoneRef);
      access.requireOnWorkzone(scope, zoneId, WRITE, 'create-tag-list-forbidden');
      const result = await store.transaction(async (repos) => {
        const sub = await lockSubscription(repos, scope);
        await lockProjectMembership(repos, scope.project.id); // the zone stays until this commits
        const f = await nextFields(repos, scope, null, input, 'put');
        const id = ids.uuid();
        await repos.tags.insertList({
          id, projectId: scope.project.id, ...f, createdAt: clock.now(), createdBy: actor.userId,
        });
        return applyChanges(repos, actor, scope, sub, (await repos.tags.listById(id))!, changes);
      });
      kickIf(changes);
      return result;
    },

    /** API 2 PUT (every field; a missing one is erased) or API 1 update (data fields given, tag changes). */
    async updateTagList(
      actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef, input: TagListInput | null, changes: TagChanges, mode: 'put' | 'patch',
    ): Promise<ChangeResult> {
      const scope = await access.project(actor, accountRef, projectRef);
      const result = await store.transaction(async (repos) => {
        const sub = await lockSubscription(repos, scope);
        return updateOne(repos, actor, scope, sub, ref, input, changes, mode);
      });
      kickIf(changes);
      return result;
    },

    /** All or nothing. */
    async bulkUpdateTagLists(
      actor: Actor, accountRef: EntityRef, projectRef: EntityRef, items: { ref: EntityRef; input: TagListInput }[],
    ): Promise<TagListRecord[]> {
      const scope = await access.project(actor, accountRef, projectRef);
      return store.transaction(async (repos) => {
        const sub = await lockSubscription(repos, scope);
        const out: TagListRecord[] = [];
        for (const it of items) out.push((await updateOne(repos, actor, scope, sub, it.ref, it.input, {}, 'put')).list);
        return out;
      });
    },

    /** Deletes lists (all or nothing); answers the ids of the tags each held. */
    async deleteTagLists(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, refs: EntityRef[]): Promise<string[]> {
      const scope = await access.project(actor, accountRef, projectRef);
      return store.transaction(async (repos) => {
        await lockSubscription(repos, scope);
        const deleted: string[] = [];
        for (const ref of refs) {
          const found = await listIn(repos, scope, ref);
          access.requireOnWorkzone(scope, found.workzoneId, WRITE, 'delete-tag-list-forbidden');
          const list = await lockForChange(repos, scope, found.id, ref);
          for (const t of await repos.tags.tags(list.id, { all: true })) deleted.push(t.id);
          await repos.tags.removeList(list.id);
        }
        return deleted;
      });
    },

    /** API 2 tags/bulk: create, update, delete in one transaction. */
    async bulkTags(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef, changes: TagChanges): Promise<ChangeResult> {
      const scope = await access.project(actor, accountRef, projectRef);
      return store.transaction(async (repos) => {
        const sub = await lockSubscription(repos, scope);
        return updateOne(repos, actor, scope, sub, ref, null, { ...changes, detect: null }, 'patch');
      });
    },

    /**
     * Moves tags from source lists into the target (vendor bulkMoveTags): each source keeps a
     * tombstone, the target gets the tag (same id) as a new one with its metadata ids mapped.
     */
    async moveTags(
      actor: Actor, accountRef: EntityRef, projectRef: EntityRef, targetRef: EntityRef,
      items: { sourceRef: EntityRef; tagRefs: EntityRef[]; metadataIdMapping?: { sourceId: string; targetId: string }[] | null }[],
    ): Promise<TagsView[]> {
      const scope = await access.project(actor, accountRef, projectRef);
      return store.transaction(async (repos) => {
        await lockSubscription(repos, scope);
        const targetFound = await listIn(repos, scope, targetRef);
        access.requireOnWorkzone(scope, targetFound.workzoneId, WRITE, 'update-tag-list-forbidden');
        const sources: { list: TagListRecord; ids: string[]; mapping: Map<string, string> }[] = [];
        for (const it of items) {
          const s = await listIn(repos, scope, it.sourceRef);
          access.requireOnWorkzone(scope, s.workzoneId, WRITE, 'update-tag-list-forbidden');
          if (s.id === targetFound.id) throw invalidInput('A source tag list is the target', { field: 'sourceTagListId' });
          if (sources.some((x) => x.list.id === s.id)) throw invalidInput('A source tag list is named twice', { field: 'sourceTagListId' });
          const tagIds = it.tagRefs.map((r) => tagUuid(r) ?? (() => { throw notFound('tag', refValue(r)); })());
          sources.push({ list: s, ids: [...new Set(tagIds)], mapping: new Map((it.metadataIdMapping ?? []).map((m) => [m.sourceId, m.targetId])) });
        }
        // Row locks in id order, so two moves between the same lists cannot deadlock.
        const locked = new Map<string, TagListRecord>();
        for (const id of [targetFound.id, ...sources.map((s) => s.list.id)].sort()) locked.set(id, await lockForChange(repos, scope, id));
        const target = locked.get(targetFound.id)!;
        const defined = new Set(target.metadataDefinitions.map((d) => d.id));
        const now = clock.now();
        const moved: TagWrite[] = [];
        const out: TagsView[] = [];
        for (const s of sources) {
          const list = locked.get(s.list.id)!;
          const rows = new Map((await repos.tags.tagsByIds(list.id, s.ids)).map((r) => [r.id, r]));
          for (const id of s.ids) if (!rows.get(id) || rows.get(id)!.deletedAt) throw notFound('tag', id);
          for (const id of s.ids) moved.push({ id, data: JSON.stringify(remapMetadata(JSON.parse(rows.get(id)!.data) as TagData, s.mapping, defined)) });
          const version = list.tagsVersion + 1;
          if (s.ids.length) {
            await repos.tags.deleteTags(list.id, s.ids, version, actor.userId, now);
            await repos.tags.touchList(list.id, { version, tagCount: list.tagCount - s.ids.length, pending: false, by: actor.userId, now });
            await repos.tags.storeTagText(list.id, tagTexts.shapesOf(list), { version });
          }
          out.push({ list: (await repos.tags.listById(list.id))!, rows: await repos.tags.tagsByIds(list.id, s.ids) });
        }
        const seen = new Set<string>();
        for (const m of moved) {
          if (seen.has(m.id)) throw invalidInput(`Tag ${m.id} is moved twice`, { field: 'tagsIds', tagId: m.id });
          seen.add(m.id);
        }
        const count = target.tagCount + moved.length;
        if (count > MAX_TAGS_PER_LIST) throw tooManyTags(target.id, count);
        // A tag moving into a list that still holds it (live) is refused; a tombstone of it is replaced.
        const present = await repos.tags.tagsByIds(target.id, moved.map((m) => m.id));
        const live = present.find((r) => !r.deletedAt);
        if (live) throw invalidInput(`Tag ${live.id} is already in the target tag list`, { field: 'tagsIds', tagId: live.id });
        const version = target.tagsVersion + 1;
        if (moved.length) {
          await repos.tags.purgeTombstones(target.id, moved.map((m) => m.id));
          await repos.tags.insertTags(target.id, moved, version, actor.userId, now, tagTexts.shapesOf(target));
          await repos.tags.touchList(target.id, { version, tagCount: count, pending: false, by: actor.userId, now });
        }
        out.push({ list: (await repos.tags.listById(target.id))!, rows: await repos.tags.tagsByIds(target.id, moved.map((m) => m.id)) });
        return out;
      });
    },

    /** API 2 ai-detection: marks the list pending and queues the detection. */
    async requestDetection(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef, d: DetectInput): Promise<TagListRecord> {
      const scope = await access.project(actor, accountRef, projectRef);
      const result = await store.transaction(async (repos) => {
        const sub = await lockSubscription(repos, scope);
        return updateOne(repos, actor, scope, sub, ref, null, { detect: d }, 'patch');
      });
      jobs.kick();
      return result.list;
    },
  };
}

export type TagLists = ReturnType<typeof createTagLists>;
