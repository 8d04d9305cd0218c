// The projects module: projects, the project scope other project-level modules open
// with (ProjectAccess), reach (before large bodies), project details, spatial references.
// Offers: Projects, ProjectAccess, Reach, ProjectDetailsService and the project rules other
// modules build on. Needs: the authorizer, activity, the store, the clock, ids.
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { createProjects, insertProjectRows, managerRoleId, ownedProjects, requiredName, subscriptionNotActive } from './projects.ts';
export type { ProjectInput, Projects, ProjectView, StatsWanted } from './projects.ts';
export { createProjectAccess, deletedProject, lockProjectMembership, requireMember } from './project-access.ts';
export type { ProjectAccess, ProjectScope } from './project-access.ts';
export { createReach } from './reach.ts';
export type { Reach } from './reach.ts';
export { createProjectDetails } from './project-details.ts';
export type { ProjectDetails, ProjectDetailsService } from './project-details.ts';
// Its descriptor (needs, offers, jobs, tasks, seed extensions): module.ts, listed by src/compose.ts.
export { projectsModule, type ProjectsOffers } from './module.ts';
