// The members module's public face (spec "Membership rules"): project membership and its
// per-work-zone access. What other modules read of it is its repository, in their own
// transactions (MembersRepos: the projects module's grants, a new zone's inherited members,
// a group's or a user's memberships dropped with them); its use cases (Members) reach the
// HTTP face through its contract (module.ts). This face exports only the port and its event
// types, files that import nothing back: the members core builds on projects, users and
// groups (project scopes, invitations, groups), which import this face, and a re-export of
// core/members.ts here would close an import loop (npm run lint:cycles).
export type { MemberAccess, MembersRepo, MembersRepos, MemberType, ProjectMemberRecord, ZoneHolds } from './core/ports.ts';
export type { MemberEventType } from './core/events.ts';
