// The projects module's contract (src/modules/contract.ts): projects, the project scope the
// other project-level modules open with, reach, project details and the owned-projects rule
// the users module checks before removing a user from an account; its repository (projects),
// the routes of both APIs, their operation docs, its events (with the caches they make
// stale) and error codes.
import { defineModule } from '../contract.ts';
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { FilesRepos } from '../../core/ports/file-repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { Authorizer } from '../../core/permissions/authorizer.ts';
import type { CacheRegistry } from '../../core/cache/registry.ts';
import { invalidationRules } from '../../core/events/invalidation.ts';
import type { RolesRepos } from '../roles/index.ts';
import type { MembersRepos } from '../members/index.ts';
import type { Activity } from '../activity/index.ts';
import type { WorkzonesRepos } from '../workzones/index.ts';
import type { AccountsRepos } from '../accounts/index.ts';
import { createProjects, ownedProjects, type Projects, type SpatialReferenceCheck } from './core/projects.ts';
import { createProjectAccess, type ProjectAccess } from './core/project-access.ts';
import { createProjectDetails, type ProjectDetailsService } from './core/project-details.ts';
import { createReach, type Reach } from './core/reach.ts';
import { createProjectLists } from './core/project-lists.ts';
import type { ProjectsRepos } from './core/ports.ts';
import type { ProjectChangeEventType } from './core/events.ts';
import { PROJECT_ERROR_CODES } from './core/errors.ts';
import { projectsRepo } from './postgres/projects-repo.ts';
import { projectRoutes as api1Routes } from './http/api1.ts';
import { projectRoutes as api2Routes } from './http/api2.ts';
import { PROJECT_API1_OPERATIONS, PROJECT_API2_OPERATIONS } from './http/operations.ts';

export interface ProjectsNeeds {
  /** The roles module's repository too: a new project's manager is the account's base Manager role. */
  store: Store<Repos & ProjectsRepos & FilesRepos & AccountsRepos & WorkzonesRepos & MembersRepos & RolesRepos>;
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
  ownedProjects: (repos: ProjectsRepos, userId: string, accountId: string) => Promise<string[]>;
}

const { project, withLists } = invalidationRules;

export const projectsModule = defineModule<ProjectsNeeds, ProjectsOffers, ProjectsRepos, ProjectChangeEventType, keyof typeof PROJECT_ERROR_CODES>({
  name: 'projects',
  feature: {
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
  },
  repositories: { projects: projectsRepo },
  routes: { api1: api1Routes, api2: api2Routes },
  operations: { api1: PROJECT_API1_OPERATIONS, api2: PROJECT_API2_OPERATIONS },
  invalidation: {
    'project.created': withLists(project),
    'project.updated': withLists(project),
    'project.deleted': withLists(project),
    'project.restored': withLists(project),
    'project.cover-changed': withLists(project),
  },
  errorCodes: PROJECT_ERROR_CODES,
});
