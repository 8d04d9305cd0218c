// The workzones module's descriptor (src/core/modules.ts): work zones, and their copy (a
// job it enqueues and handles).
import type { FeatureModule } from '../modules.ts';
import type { Repos, Store } from '../ports/repositories.ts';
import type { RolesRepos } from '../../modules/roles/index.ts';
import type { TagsRepos } from '../../modules/tags/index.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import { formatUrn } from '../ids/urn.ts';
import type { Authorizer } from '../permissions/authorizer.ts';
import type { ProjectAccess } from '../projects/index.ts';
import type { JobRunner } from '../../modules/jobs/index.ts';
import type { SendMail } from '../mail/index.ts';
import type { Files } from '../files/index.ts';
import type { CacheRegistry } from '../cache/registry.ts';
import { createWorkzones, type Workzones } from './workzones.ts';
import { COPY_JOB, createWorkzoneCopy, type WorkzoneCopy } from './copy.ts';
import type { JobsRepos } from '../../modules/jobs/index.ts';
import type { MembersRepos } from '../../modules/members/index.ts';

export interface WorkzonesNeeds {
  /** The members module's repository too (a new zone inherits its parent's members, a copy its source's), the roles module's (a new project's manager is the account's base Manager role), and the tags module's (a zone counts its tags). */
  store: Store<Repos & MembersRepos & RolesRepos & TagsRepos & JobsRepos>;
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

export const workzonesModule: FeatureModule<WorkzonesNeeds, { workzones: Workzones; workzoneCopy: WorkzoneCopy }> = {
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
};
