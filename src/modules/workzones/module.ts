// The workzones module's contract (src/modules/contract.ts): the work-zone tree of each
// project and a zone's copy (a job it enqueues and handles), its repository, API 2's routes,
// their operation docs, its events (with the caches they make stale) and error codes.
import { defineModule } from '../contract.ts';
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { FilesRepos } from '../../core/ports/file-repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import { formatUrn } from '../../core/ids/urn.ts';
import type { Authorizer } from '../../core/permissions/authorizer.ts';
import { invalidationRules } from '../../core/events/invalidation.ts';
import type { CacheRegistry } from '../../core/cache/registry.ts';
import type { ProjectAccess, ProjectsRepos } from '../projects/index.ts';
import type { SendMail } from '../mail/index.ts';
import type { Files } from '../files/index.ts';
import type { RolesRepos } from '../roles/index.ts';
import type { TagsRepos } from '../tags/index.ts';
import type { JobRunner, JobsRepos } from '../jobs/index.ts';
import type { MembersRepos } from '../members/index.ts';
import { createWorkzones, type Workzones } from './core/workzones.ts';
import { createWorkzoneCopy, type WorkzoneCopy } from './core/copy.ts';
import { COPY_JOB } from './core/copy-job.ts';
import type { WorkzonesRepos } from './core/ports.ts';
import type { WorkzoneEventType } from './core/events.ts';
import { WORKZONE_ERROR_CODES } from './core/errors.ts';
import { workzonesRepo } from './postgres/workzones-repo.ts';
import { workzoneRoutes } from './http/api2.ts';
import { WORKZONE_API2_OPERATIONS } from './http/operations.ts';
import type { AccountsRepos } from '../accounts/index.ts';

export interface WorkzonesNeeds {
  /** The members module's repository too (a new zone inherits its parent's members, a copy its source's), the roles module's (a new project's manager is the account's base Manager role), and the tags module's (a zone counts its tags). */
  store: Store<Repos & ProjectsRepos & FilesRepos & AccountsRepos & WorkzonesRepos & MembersRepos & RolesRepos & TagsRepos & JobsRepos>;
  caches: CacheRegistry;
  clock: Clock;
  ids: Ids;
  authorizer: Authorizer;
  projectAccess: ProjectAccess;
  jobRunner: JobRunner;
  sendMail: SendMail;
  files: Files;
  config: { publicUrl: string; urnNamespace: string; workzoneCacheEntries: number };
}

const { project, contents, withLists } = invalidationRules;

export const workzonesModule = defineModule<WorkzonesNeeds, { workzones: Workzones; workzoneCopy: WorkzoneCopy }, WorkzonesRepos, WorkzoneEventType, keyof typeof WORKZONE_ERROR_CODES>({
  name: 'workzones',
  feature: {
    name: 'workzones',
    enqueues: [COPY_JOB],
    create: ({ store, clock, ids, authorizer, projectAccess, jobRunner, sendMail, files, caches, config }) => {
      const workzoneCopy = createWorkzoneCopy({
        store, clock, ids, authorizer, access: projectAccess, jobs: jobRunner, sendMail, publicUrl: config.publicUrl,
        urn: (type, id) => formatUrn(config.urnNamespace, type, id),
        copyFiles: files.copyFiles,
      });
      return {
        offers: {
          workzones: createWorkzones({ store, clock, ids, access: projectAccess, viewCacheEntries: config.workzoneCacheEntries, caches }),
          workzoneCopy,
        },
        jobs: { [COPY_JOB]: workzoneCopy.handler },
      };
    },
  },
  repositories: { workzones: workzonesRepo },
  routes: { api2: workzoneRoutes },
  operations: { api2: WORKZONE_API2_OPERATIONS },
  invalidation: {
    // A zone's grants are materialised per zone: creating, deleting or copying zones changes them.
    'workzone.created': withLists(project),
    // A zone's name and description are in its read model.
    'workzone.updated': contents,
    'workzone.deleted': withLists(project),
    'workzone.copied': withLists(project),
  },
  errorCodes: WORKZONE_ERROR_CODES,
});
