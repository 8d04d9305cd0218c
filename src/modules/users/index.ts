// The users module's public face: sign-in (throttled), the users of an account and their
// invitations, password resets, the links' set-password page, and what the service's pages
// show of a user; the invitation rules the members module builds on (inviteToAccount,
// pendingView, resolveUser); its repository port (UsersRepos: the operator's administration
// command and the members module write one-time links, invitations and their caps in their
// transactions) and event types. Its contract (module.ts) is listed by src/module-list.ts and
// not re-exported here: it imports the routes, whose face types would close an import loop
// (npm run lint:cycles).
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { createSignIn, THROTTLE } from './core/sign-in.ts';
export type { SignIn } from './core/sign-in.ts';
export { createAccountUsers } from './core/account-users.ts';
export type { AccountUsers, AccountUserView, InviteEntry } from './core/account-users.ts';
export {
  createAccountInvitations, INVITATION_SECONDS, inviteToAccount, joinAccount, pendingView, tooManyInvitations,
} from './core/account-invitations.ts';
export type { AccountInvitations, InviteDeps, InviteLimits, MyInvitation } from './core/account-invitations.ts';
export { invitationMail, quoteUntrusted } from './core/invitation-mails.ts';
export { createInvitations, PASSWORD_MAX, PASSWORD_MIN } from './core/invitations.ts';
export type { Invitations } from './core/invitations.ts';
export { createPasswordResets, PASSWORD_RESET, RESET_MAIL_JOB } from './core/password-resets.ts';
export type { PasswordResets } from './core/password-resets.ts';
export { resolveUser } from './core/resolve-users.ts';
export { createUserProfiles } from './core/user-profiles.ts';
export type { UserProfiles } from './core/user-profiles.ts';
export type {
  AccountInvitationRecord, AccountInvitationsRepo, CountersRepo, InvitationPurpose, InvitationRecord, InvitationsRepo, UsersRepos,
} from './core/ports.ts';
export type { UserEventType } from './core/events.ts';
