// The members module: project membership and its per-work-zone access.
// Offers: Members. Needs: project access, send-mail (invitations of new users).
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { createMembers } from './members.ts';
export type { AddMembersInput, MemberAccessView, Members } from './members.ts';
// Its descriptor (needs, offers, jobs, tasks, seed extensions): module.ts, listed by src/compose.ts.
export { membersModule } from './module.ts';
