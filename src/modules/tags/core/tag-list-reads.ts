// Reading tag lists and their tags (spec API 1 tag-list operations; vendor API 2 TagList,
// Tag; docs/tags.md): workzone:tags:read on the list's work zone.
import type { EntityRef } from '../../../core/ids/urn.ts';
import { readsOf, storeReadsOf, type ReadsOf } from '../../../core/ports/store-slices.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { UsageRecorder } from '../../usage/index.ts';
import type { TagFilter, TagListRecord, TagRow, TagsRepos, TagTextRun } from './ports.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import { requirePermission, type Actor } from '../../../core/permissions/authorizer.ts';
import { condition } from '../../../core/permissions/refusal-conditions.ts';
import { type ProjectAccess, requireMember } from '../../projects/index.ts';
import type { TagTexts } from './tag-texts.ts';
import { TAGS_READ, listIn } from './tag-list-locks.ts';
import type { WorkzonesRepos } from '../../workzones/index.ts';

export interface TagsView {
  list: TagListRecord;
  rows: TagRow[];
}

export interface TagListReads {
  /** Lists on the zones where the caller holds tags:read (API 1 `since`: only those updated after it). */
  listTagLists(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, since?: Date): Promise<TagListRecord[]>;
  getTagList(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef): Promise<TagListRecord>;
  /**
   * getTagList for a read of the whole list's tags (both APIs' tag reads without a version or
   * date): the caller downloads its live tags, counted in the usage report (`tagsDownloaded`,
   * docs/usage.md). A refused read counts nothing; reads of the changes since a version
   * neither (the client holds those tags already).
   */
  openWholeList(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef): Promise<TagListRecord>;
  /** Live tags (`all`), or every change after a version or since a date, tombstones included. */
  getTags(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef, filter: TagFilter): Promise<TagsView>;
  /**
   * getTags written as JSON text by the store in one query (`shape` is the presentation's),
   * so a 50,000-tag list costs no per-tag work here: the comma-joined tags, no brackets.
   */
  getTagsJson(
    actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef, filter: TagFilter, generation: 1 | 2,
  ): Promise<{ list: TagListRecord; version: number; json: string }>;
  /**
   * getTagsJson in runs handed to `onRun` as they are read (repo streamTagTexts), for the
   * whole-list text sent while it is read, kept per node and patched with later changes.
   * Access is checked before the first run.
   */
  streamTagTexts(
    actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef, filter: TagFilter, generation: 1 | 2,
    onRun: (run: TagTextRun) => void,
  ): Promise<{ list: TagListRecord; version: number }>;
}

/** What it reads of the store (src/core/ports/store-slices.ts). */
export const TAG_LIST_READS = storeReadsOf<Repos & WorkzonesRepos & TagsRepos>()(['tags', 'workzones']);

export function createTagListReads(deps: {
  store: ReadsOf<typeof TAG_LIST_READS, Repos & WorkzonesRepos & TagsRepos>;
  access: Pick<ProjectAccess, 'project'>;
  tagTexts: Pick<TagTexts, 'shapeOf'>;
  clock: Clock;
  usage: Pick<UsageRecorder, 'tallyDownloads'>;
}): TagListReads {
  const { access, tagTexts, clock, usage } = deps;
  const store = readsOf(deps.store, TAG_LIST_READS);

  /** A list the caller may read (member of the project, tags:read on its zone). */
  async function readableList(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, ref: EntityRef): Promise<TagListRecord> {
    const scope = await access.project(actor, accountRef, projectRef);
    requireMember(scope);
    const list = await listIn(store.repos, scope, ref);
    requirePermission(scope.workzone(list.workzoneId), TAGS_READ, 'view-tag-list-forbidden');
    return list;
  }

  return {
    async listTagLists(actor, accountRef, projectRef, since) {
      const scope = await access.project(actor, accountRef, projectRef);
      requireMember(scope);
      const zones = await store.repos.workzones.listByProject(scope.project.id);
      requirePermission(condition('on-some-workzone', zones.some((z) => scope.workzone(z.id).has(TAGS_READ))), TAGS_READ, 'list-tag-lists-forbidden');
      const lists = await store.repos.tags.listsOfProject(scope.project.id, since);
      return lists.filter((l) => scope.workzone(l.workzoneId).has(TAGS_READ));
    },

    getTagList: readableList,

    async openWholeList(actor, accountRef, projectRef, ref) {
      const list = await readableList(actor, accountRef, projectRef, ref);
      usage.tallyDownloads([{ projectId: list.projectId, userId: actor.userId, action: 'tags-downloaded', count: list.tagCount }], clock.now());
      return list;
    },

    async getTags(actor, accountRef, projectRef, ref, filter) {
      const list = await readableList(actor, accountRef, projectRef, ref);
      return { list, rows: await store.repos.tags.tags(list.id, filter) };
    },

    async getTagsJson(actor, accountRef, projectRef, ref, filter, generation) {
      const list = await readableList(actor, accountRef, projectRef, ref);
      return { list, ...(await store.repos.tags.renderTags(list.id, filter, tagTexts.shapeOf(generation, list))) };
    },

    async streamTagTexts(actor, accountRef, projectRef, ref, filter, generation, onRun) {
      const list = await readableList(actor, accountRef, projectRef, ref);
      return { list, ...(await store.repos.tags.streamTagTexts(list.id, filter, tagTexts.shapeOf(generation, list), onRun)) };
    },
  };
}
