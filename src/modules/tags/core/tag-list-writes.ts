// Writing tag lists and their tags (spec API 1 tag-list operations; vendor API 2 TagList and
// tags/bulk; docs/tags.md): every request is one transaction that locks the subscription's
// tag counter and the lists it changes; the tag changes are planned by planTagChanges
// (tag-change-plan.ts, pure), then written here with the plan's tagsVersion, leaving
// tombstones for deletions.
import { projectEventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { tagListChanged } from './events.ts';
import { invalidInput, notFound } from '../../../core/errors.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { FilesRepos } from '../../../core/ports/file-repositories.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { MetadataDefinition, TagListRecord, TagRow, TagsRepos } from './ports.ts';
import type { Permission } from '../../../core/permissions/catalog.ts';
import { requirePermission, type Actor } from '../../../core/permissions/authorizer.ts';
import { lockProjectMembership, type ProjectAccess, type ProjectScope, requiredName, type ProjectsRepos } from '../../projects/index.ts';
import type { JobRunner } from '../../jobs/index.ts';
import type { TagTexts } from './tag-texts.ts';
import { AI_DETECTION_CLASS_NAMES } from './ai-detection-classes.ts';
import { checkColor, checkMetadataDefinitions } from './tag-data.ts';
import { TAGS_WRITE, listIn, lockForChange, lockSubscription } from './tag-list-locks.ts';
import {
  checkTagCapacity, needsLiveTags, planTagChanges, tagIdsToRead, writtenRows, type DetectInput, type TagChanges,
} from './tag-change-plan.ts';
import type { JobsRepos } from '../../jobs/index.ts';
import type { WorkzonesRepos } from '../../workzones/index.ts';
import type { AccountsRepos, SubscriptionRecord } from '../../accounts/index.ts';

export const DETECT_JOB = 'tag-detection';

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

export interface ChangeResult {
  list: TagListRecord;
  created: TagRow[];
  updated: TagRow[];
  deleted: string[];
}

export interface TagListWrites {
  createTagList(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, input: TagListInput, changes?: TagChanges): Promise<ChangeResult>;
  /** API 2 PUT (every field; a missing one is erased) or API 1 update (data fields given, tag changes). */
  updateTagList(
    actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef, input: TagListInput | null, changes: TagChanges, mode: 'put' | 'patch',
  ): Promise<ChangeResult>;
  /** All or nothing. */
  bulkUpdateTagLists(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, items: { ref: EntityRef; input: TagListInput }[]): Promise<TagListRecord[]>;
  /** Deletes lists (all or nothing); answers the ids of the tags each held. */
  deleteTagLists(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, refs: EntityRef[]): Promise<string[]>;
  /** API 2 tags/bulk: create, update, delete in one transaction. */
  bulkTags(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef, changes: TagChanges): Promise<ChangeResult>;
  /** API 2 ai-detection: marks the list pending and queues the detection. */
  requestDetection(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef, d: DetectInput): Promise<TagListRecord>;
}

const sameDefinitions = (a: MetadataDefinition[], b: MetadataDefinition[]) =>
  a.length === b.length && a.every((d, i) => d.id === b[i]!.id && d.name === b[i]!.name);

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const TAG_LIST_WRITES_STORE = storeUseOf<Repos & ProjectsRepos & FilesRepos & AccountsRepos & WorkzonesRepos & TagsRepos & JobsRepos>()({ reads: ['workzones'], writes: ['events', 'files', 'jobs', 'locks', 'projects', 'subscriptions', 'tags', 'workzones'] });

export function createTagListWrites(deps: {
  store: SliceOf<typeof TAG_LIST_WRITES_STORE, Repos & ProjectsRepos & FilesRepos & AccountsRepos & WorkzonesRepos & TagsRepos & JobsRepos>;
  clock: Clock;
  ids: Ids;
  access: Pick<ProjectAccess, 'project'>;
  jobs: Pick<JobRunner, 'enqueue' | 'kick'>;
  tagTexts: Pick<TagTexts, 'shapesOf'>;
}): TagListWrites {
  const { clock, ids, access, jobs, tagTexts } = deps;
  const store = sliceOf(deps.store, TAG_LIST_WRITES_STORE);

  async function zoneIn(repos: Pick<Repos & WorkzonesRepos, 'workzones'>, scope: ProjectScope, ref: EntityRef): Promise<string> {
    const w = await repos.workzones.byRef(scope.project.id, ref);
    if (!w) throw notFound('workzone', refValue(ref));
    return w.id;
  }

  /** Known classes; scans of the project the caller may read and export from. Answers the scans' ids. */
  async function checkDetect(repos: Pick<FilesRepos, 'files'>, scope: ProjectScope, d: DetectInput): Promise<{ classes: string[]; fileIds: string[] }> {
    if (!d.classes.length) throw invalidInput('detect.classes must name at least one class', { field: 'classes' });
    for (const c of d.classes) if (!AI_DETECTION_CLASS_NAMES.has(c)) throw invalidInput(`Unknown AI detection class ${c}`, { field: 'classes', class: c });
    if (!d.fileRefs.length) throw invalidInput('detect.fileIds must name at least one scan', { field: 'filesIds' });
    const fileIds = new Set<string>();
    for (const ref of d.fileRefs) {
      const f = await repos.files.byRef(scope.project.id, ref);
      if (!f) throw notFound('file', refValue(ref));
      if (f.category !== 'scan') throw invalidInput(`File ${f.id} is not a scan (${f.category})`, { field: 'filesIds', fileId: f.id });
      requirePermission(scope.workzone(f.workzoneId), SCAN_NEEDS, 'update-tag-list-forbidden');
      fileIds.add(f.id);
    }
    return { classes: [...new Set(d.classes)], fileIds: [...fileIds] };
  }

  /** Plans then writes tag changes on a locked list (all or nothing: any failure throws before the transaction commits). */
  async function applyChanges(
    repos: Pick<Repos & FilesRepos & TagsRepos & JobsRepos, 'events' | 'files' | 'jobs' | 'tags'>, actor: Actor, scope: ProjectScope, sub: SubscriptionRecord, list: TagListRecord, c: TagChanges,
    opts: { definitionsChanged?: boolean } = {},
  ): Promise<ChangeResult> {
    const definitionsChanged = !!opts.definitionsChanged;
    const toRead = tagIdsToRead(c);
    const plan = planTagChanges({
      list,
      changes: c,
      stored: toRead.length ? await repos.tags.tagsByIds(list.id, toRead) : [],
      liveTags: needsLiveTags(c, definitionsChanged) ? await repos.tags.tags(list.id, { all: true }) : null,
      definitionsChanged,
      newId: () => ids.uuid(),
    });
    if (plan.addedTags > 0) checkTagCapacity(sub, await repos.tags.countForSubscription(sub.id), plan.addedTags);
    const { version } = plan;
    const now = clock.now();
    const detect = c.detect ? await checkDetect(repos, scope, c.detect) : null;
    if (plan.changed) {
      await repos.tags.deleteTags(list.id, plan.deleteIds, version, actor.userId, now);
      await repos.tags.updateTags(list.id, plan.updates, version, actor.userId, now);
      const shapes = tagTexts.shapesOf(list);
      await repos.tags.insertTags(list.id, plan.inserts, version, actor.userId, now, shapes);
      // Inserted rows were written with their text; updated and deleted ones get theirs here.
      if (plan.updates.length || plan.deleteIds.length) await repos.tags.storeTagText(list.id, shapes, { version });
    }
    if (plan.changed || definitionsChanged || detect) {
      await repos.tags.touchList(list.id, { version, tagCount: plan.tagCount, pending: !!detect, by: actor.userId, now });
      await repos.events.publish(tagListChanged(scope.project, list.id, { tagsVersion: version, tagCount: plan.tagCount, pending: !!detect }), now);
    }
    if (detect) {
      await jobs.enqueue(repos, {
        kind: DETECT_JOB,
        payload: { tagListId: list.id, projectId: list.projectId, accountId: scope.project.accountId, classes: detect.classes, fileIds: detect.fileIds, userId: actor.userId },
        subjects: [`tag-list:${list.id}`],
        createdBy: actor.userId,
      });
    }
    return { list: (await repos.tags.listById(list.id))!, ...writtenRows(plan, list.id, actor.userId, now), deleted: plan.deleteIds };
  }

  /** The list's fields after an API 2 overwrite (`put`) or an API 1 patch. */
  async function nextFields(repos: Pick<Repos & WorkzonesRepos, 'workzones'>, scope: ProjectScope, list: TagListRecord | null, input: TagListInput, mode: 'put' | 'patch') {
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

  async function updateOne(
    repos: Pick<Repos & FilesRepos & TagsRepos & JobsRepos & WorkzonesRepos, 'events' | 'files' | 'jobs' | 'locks' | 'tags' | 'workzones'>, actor: Actor, scope: ProjectScope, sub: SubscriptionRecord, ref: EntityRef, input: TagListInput | null, changes: TagChanges,
    mode: 'put' | 'patch',
  ): Promise<ChangeResult> {
    const found = await listIn(repos, scope, ref);
    requirePermission(scope.workzone(found.workzoneId), TAGS_WRITE, 'update-tag-list-forbidden');
    // A work zone named by the fields cannot be deleted until this commits (zone deletions take
    // this lock); taken before the list's row lock, as a zone deletion takes them in that order.
    if (input) await lockProjectMembership(repos, scope.project.id);
    let list = await lockForChange(repos, scope, found.id, ref);
    const typeBefore = list.tagListType;
    let definitionsChanged = false;
    if (input) {
      const f = await nextFields(repos, scope, list, input, mode);
      // Moving the list to another zone needs tags:write there too (vendor updateTagList).
      if (f.workzoneId !== list.workzoneId) requirePermission(scope.workzone(f.workzoneId), TAGS_WRITE, 'update-tag-list-forbidden');
      definitionsChanged = !sameDefinitions(f.metadataDefinitions, list.metadataDefinitions);
      const now = clock.now();
      await repos.tags.updateList(list.id, f, actor.userId, now);
      await repos.events.publish(projectEventOf('tag-list.updated', scope.project, subjectOf('tag-list', list.id), { tagListId: list.id, workzoneId: f.workzoneId }), now);
      list = (await repos.tags.listById(list.id))!;
    }
    const result = await applyChanges(repos, actor, scope, sub, list, changes, { definitionsChanged });
    // Every tag's stored text names the list's type: a new type rewrites the rest of them.
    if (list.tagListType !== typeBefore) await repos.tags.storeTagText(list.id, tagTexts.shapesOf(list), 'stale');
    return result;
  }

  /** One tag list's write in its transaction, under the subscription's lock; the detection runner is woken after commit. */
  async function updateInTransaction(
    actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef, input: TagListInput | null, changes: TagChanges, mode: 'put' | 'patch',
  ): Promise<ChangeResult> {
    const scope = await access.project(actor, accountRef, projectRef);
    const result = await store.transaction(async (repos) => updateOne(repos, actor, scope, await lockSubscription(repos, scope), ref, input, changes, mode));
    if (changes.detect) jobs.kick();
    return result;
  }

  return {
    async createTagList(actor, accountRef, projectRef, input, changes = {}) {
      const scope = await access.project(actor, accountRef, projectRef);
      if (!input.workzoneRef) throw invalidInput('workzoneId is required', { field: 'workzoneId' });
      const zoneId = await zoneIn(store.repos, scope, input.workzoneRef);
      requirePermission(scope.workzone(zoneId), TAGS_WRITE, 'create-tag-list-forbidden');
      const result = await store.transaction(async (repos) => {
        const sub = await lockSubscription(repos, scope);
        await lockProjectMembership(repos, scope.project.id); // the zone stays until this commits
        const f = await nextFields(repos, scope, null, input, 'put');
        const id = ids.uuid();
        const now = clock.now();
        await repos.tags.insertList({
          id, projectId: scope.project.id, ...f, createdAt: now, createdBy: actor.userId,
        });
        await repos.events.publish(projectEventOf('tag-list.created', scope.project, subjectOf('tag-list', id), { tagListId: id, workzoneId: f.workzoneId }), now);
        return applyChanges(repos, actor, scope, sub, (await repos.tags.listById(id))!, changes);
      });
      if (changes.detect) jobs.kick();
      return result;
    },

    updateTagList: updateInTransaction,

    async bulkUpdateTagLists(actor, accountRef, projectRef, items) {
      const scope = await access.project(actor, accountRef, projectRef);
      return store.transaction(async (repos) => {
        const sub = await lockSubscription(repos, scope);
        const out: TagListRecord[] = [];
        for (const it of items) out.push((await updateOne(repos, actor, scope, sub, it.ref, it.input, {}, 'put')).list);
        return out;
      });
    },

    async deleteTagLists(actor, accountRef, projectRef, refs) {
      const scope = await access.project(actor, accountRef, projectRef);
      return store.transaction(async (repos) => {
        await lockSubscription(repos, scope);
        const deleted: string[] = [];
        for (const ref of refs) {
          const found = await listIn(repos, scope, ref);
          requirePermission(scope.workzone(found.workzoneId), TAGS_WRITE, 'delete-tag-list-forbidden');
          const list = await lockForChange(repos, scope, found.id, ref);
          for (const t of await repos.tags.tags(list.id, { all: true })) deleted.push(t.id);
          await repos.tags.removeList(list.id);
          await repos.events.publish(projectEventOf('tag-list.deleted', scope.project, subjectOf('tag-list', list.id), { tagListId: list.id, workzoneId: list.workzoneId }), clock.now());
        }
        return deleted;
      });
    },

    bulkTags: (actor, accountRef, projectRef, ref, changes) =>
      updateInTransaction(actor, accountRef, projectRef, ref, null, { ...changes, detect: null }, 'patch'),

    async requestDetection(actor, accountRef, projectRef, ref, d) {
      return (await updateInTransaction(actor, accountRef, projectRef, ref, null, { detect: d }, 'patch')).list;
    },
  };
}
