// The projects module's public face: projects, the project scope other project-level modules
// open with (ProjectAccess, lockProjectMembership), reach (before large bodies), project
// details, and the project rules other modules build on; its repository port (ProjectsRepos:
// files and their covers, tags, work-zone copies, activity, users and SCIM read or write
// projects in their transactions) and its event types. Needs: the authorizer, activity, the
// store, the clock, ids. Other modules, src/http and the wiring import it through this file
// (and the module list through module.ts) only (eslint.config.js).
export { createProjects, insertProjectRows, managerRoleId, ownedProjects, requiredName, subscriptionNotActive } from './core/projects.ts';
export type { ProjectInput, Projects, ProjectView, StatsWanted } from './core/projects.ts';
export { createProjectAccess, deletedProject, lockProjectMembership, requireMember } from './core/project-access.ts';
export type { ProjectAccess, ProjectScope } from './core/project-access.ts';
export { createReach } from './core/reach.ts';
export type { Reach } from './core/reach.ts';
export { createProjectDetails } from './core/project-details.ts';
export type { ProjectDetails, ProjectDetailsService } from './core/project-details.ts';
export type { Location, ProjectFields, ProjectRecord, ProjectStats, ProjectsRepo, ProjectsRepos, SpatialReference } from './core/ports.ts';
export type { ProjectChangeEventType } from './core/events.ts';
