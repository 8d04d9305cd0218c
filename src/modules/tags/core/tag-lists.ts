// Tag lists and their tags (spec API 1 tag-list operations; vendor API 2 TagList, Tag and
// the bulk operations; docs/tags.md): the use-case groups, assembled for compose.ts and
// the HTTP layer.
//   tag-list-reads.ts    lists, tags, and their JSON text (tags:read)
//   tag-list-writes.ts   create, update, delete lists; bulk tag changes; AI detection requests
//   tag-moves.ts         moving tags between lists
// Tag changes and moves are planned by pure functions (tag-change-plan.ts) and written by
// the use cases, under the locks of tag-list-locks.ts.
import type { Clock } from '../../../core/ports/clock.ts';
import type { UsageRecorder } from '../../usage/index.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { ProjectAccess, ProjectsRepos } from '../../projects/index.ts';
import type { JobRunner } from '../../jobs/index.ts';
import type { TagTexts } from './tag-texts.ts';
import { createTagListReads, type TagListReads } from './tag-list-reads.ts';
import { createTagListWrites, type TagListWrites } from './tag-list-writes.ts';
import { createTagMoves, type TagMoves } from './tag-moves.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { FilesRepos } from '../../../core/ports/file-repositories.ts';
import type { TagsRepos } from './ports.ts';
import type { JobsRepos } from '../../jobs/index.ts';
import type { WorkzonesRepos } from '../../workzones/index.ts';
import type { AccountsRepos } from '../../accounts/index.ts';

export { DETECT_JOB } from './tag-list-writes.ts';
export type { ChangeResult, TagListInput } from './tag-list-writes.ts';
export type { TagsView } from './tag-list-reads.ts';
export { capacityExceededTag } from './tag-change-plan.ts';
export type { DetectInput, TagChanges } from './tag-change-plan.ts';
export { tagListPending } from './tag-list-locks.ts';

/** Every use case of tag lists and tags. */
export type TagLists = TagListReads & TagListWrites & TagMoves;

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const TAG_LISTS_STORE = storeUseOf<Repos & ProjectsRepos & FilesRepos & AccountsRepos & WorkzonesRepos & TagsRepos & JobsRepos>()({ reads: ['tags', 'workzones'], writes: ['events', 'files', 'jobs', 'locks', 'projects', 'subscriptions', 'tags', 'workzones'] });

export function createTagLists(deps: {
  store: SliceOf<typeof TAG_LISTS_STORE, Repos & ProjectsRepos & FilesRepos & AccountsRepos & WorkzonesRepos & TagsRepos & JobsRepos>; clock: Clock; ids: Ids; access: ProjectAccess; jobs: JobRunner; tagTexts: TagTexts;
  /** Whole-list reads are counted in the usage report (tagsDownloaded). */
  usage: Pick<UsageRecorder, 'tallyDownloads'>;
}): TagLists {
  const { clock, ids, access, jobs, tagTexts, usage } = deps;
  const store = sliceOf(deps.store, TAG_LISTS_STORE);
  return {
    ...createTagListReads({ store, access, tagTexts, clock, usage }),
    ...createTagListWrites({ store, clock, ids, access, jobs, tagTexts }),
    ...createTagMoves({ store, clock, access, tagTexts }),
  };
}
