// The tags module's contract (src/modules/contract.ts): tag lists of both API generations,
// tag moves and AI detection (a job it enqueues and handles, over the TagDetector port); its
// repository, API 1's and API 2's routes, their operation docs, its events (with the caches
// they make stale) and error codes. The whole lists kept as text per node are written in
// each API's one tag shape (http/api*-tag-json.ts, given to its core here).
import { defineModule } from '../contract.ts';
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { FilesRepos } from '../../core/ports/file-repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { UsageRecorder } from '../usage/index.ts';
import type { ProjectAccess, ProjectsRepos } from '../projects/index.ts';
import type { JobRunner } from '../jobs/index.ts';
import { invalidationRules } from '../../core/events/invalidation.ts';
import type { TagDetector } from './core/tag-detector.ts';
import type { TagsRepos } from './core/ports.ts';
import { createTagLists, DETECT_JOB, type TagLists } from './core/tag-lists.ts';
import { createDetectionJob } from './core/detection.ts';
import { TagTexts } from './core/tag-texts.ts';
import type { TagEventType } from './core/events.ts';
import { TAG_ERROR_CODES } from './core/errors.ts';
import { tagsRepo } from './postgres/tags-repo.ts';
import { api1TagJson } from './http/api1-tag-json.ts';
import { api2TagJson } from './http/api2-tag-json.ts';
import { tagRoutes as api1Tags } from './http/api1.ts';
import { tagRoutes as api2Tags } from './http/api2.ts';
import { TAG_API1_OPERATIONS, TAG_API2_OPERATIONS } from './http/operations.ts';
import type { JobsRepos } from '../jobs/index.ts';
import type { WorkzonesRepos } from '../workzones/index.ts';
import type { AccountsRepos } from '../accounts/index.ts';

export interface TagsNeeds {
  store: Store<Repos & ProjectsRepos & FilesRepos & AccountsRepos & WorkzonesRepos & TagsRepos & JobsRepos>;
  clock: Clock;
  ids: Ids;
  projectAccess: ProjectAccess;
  jobRunner: JobRunner;
  /** The AI detector behind tag-list detection. */
  detector: TagDetector;
  /** The usage module's recorder: whole-list reads are tallied as tag downloads. */
  usageRecorder: UsageRecorder;
  config: { urnNamespace: string };
}

const { contents, withLists } = invalidationRules;

export const tagsModule = defineModule<TagsNeeds, { tagLists: TagLists }, TagsRepos, TagEventType, keyof typeof TAG_ERROR_CODES>({
  name: 'tags',
  feature: {
    name: 'tags',
    enqueues: [DETECT_JOB],
    create: ({ store, clock, ids, projectAccess, jobRunner, detector, usageRecorder, config }) => {
      const tagTexts = new TagTexts([api1TagJson, api2TagJson(config.urnNamespace)]);
      return {
        offers: { tagLists: createTagLists({ store, clock, ids, access: projectAccess, jobs: jobRunner, tagTexts, usage: usageRecorder }) },
        jobs: { [DETECT_JOB]: createDetectionJob({ store, clock, ids, detector, tagTexts }) },
      };
    },
  },
  repositories: { tags: tagsRepo },
  routes: { api1: api1Tags, api2: api2Tags },
  operations: { api1: TAG_API1_OPERATIONS, api2: TAG_API2_OPERATIONS },
  // Contents: no access fact depends on them (readers check tagsVersion themselves); a zone's
  // read model counts its tags, and so does a project list (tagCount), which sums its lists'
  // tags: a new list is empty (its first tags come with tag-list.changed), and a list moved to
  // another zone (an update) stays in the project.
  invalidation: {
    'tag-list.created': contents,
    'tag-list.updated': contents,
    'tag-list.deleted': withLists(contents),
    'tag-list.changed': withLists(contents),
  },
  errorCodes: TAG_ERROR_CODES,
});
