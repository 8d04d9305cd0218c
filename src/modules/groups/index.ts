// The groups module's public face (spec "Group"): the user groups of an account.
export { createGroups } from './core/groups.ts';
export type { GroupInput, Groups } from './core/groups.ts';
export type { GroupFields, GroupRecord, GroupsRepo, GroupsRepos } from './core/ports.ts';
export type { GroupEventType } from './core/events.ts';
