// The projects module's descriptor (src/core/modules.ts): projects, the project scope the
// other project-level modules open with, reach, project details; and the owned-projects
// rule the users module checks before removing a user from an account.
import type { FeatureModule } from '../modules.ts';
import type { Repos, Store } from '../ports/repositories.ts';
import type { FilesRepos } from '../ports/file-repositories.ts';
import type { RolesRepos } from '../../modules/roles/index.ts';
import type { MembersRepos } from '../../modules/members/index.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { Authorizer } from '../permissions/authorizer.ts';
import type { CacheRegistry } from '../cache/registry.ts';
import type { Activity } from '../../modules/activity/index.ts';
import { createProjects, ownedProjects, type Projects, type SpatialReferenceCheck } from './projects.ts';
import { createProjectAccess, type ProjectAccess } from './project-access.ts';
import { createProjectDetails, type ProjectDetailsService } from './project-details.ts';
import { createReach, type Reach } from './reach.ts';
import { createProjectLists } from './project-lists.ts';
import type { WorkzonesRepos } from '../../modules/workzones/index.ts';
import type { AccountsRepos } from '../../modules/accounts/index.ts';

export interface ProjectsNeeds {
  /** The roles module's repository too: a new project's manager is the account's base Manager role. */
  store: Store<Repos & FilesRepos & AccountsRepos & WorkzonesRepos & MembersRepos & RolesRepos>;
  clock: Clock;
  ids: Ids;
  authorizer: Authorizer;
  activity: Activity;
  caches: CacheRegistry;
  config: { projectListCacheProjects: number; projectAccessCacheEntries: number };
  /** The values module's lists: a project's spatialReference must be one of them. */
  valuesLists: SpatialReferenceCheck;
}

export interface ProjectsOffers {
  projectAccess: ProjectAccess;
  projects: Projects;
  projectDetails: ProjectDetailsService;
  reach: Reach;
  /** The projects of an account a user owns, in the caller's transaction. */
  ownedProjects: (repos: Pick<Repos, 'projects'>, userId: string, accountId: string) => Promise<string[]>;
}

export const projectsModule: FeatureModule<ProjectsNeeds, ProjectsOffers> = {
  name: 'projects',
  create: ({ store, clock, ids, authorizer, activity, caches, config, valuesLists }) => {
    const projectAccess = createProjectAccess({ store, clock, authorizer, activity, caches, maxEntries: config.projectAccessCacheEntries });
    const lists = createProjectLists({ store, clock, maxProjects: config.projectListCacheProjects, caches });
    const projects = createProjects({ store, clock, ids, authorizer, access: projectAccess, lists, spatialReferences: valuesLists });
    return {
      offers: {
        projectAccess,
        projects,
        projectDetails: createProjectDetails({ store, access: projectAccess, projects }),
        reach: createReach({ access: projectAccess }),
        ownedProjects,
      },
    };
  },
};
