// The users module: sign-in (throttled), the users of an account and their invitations,
// password resets, the links' set-password page, and what the service's pages show of a user.
// Offers: SignIn, AccountUsers, Invitations, PasswordResets, UserProfiles and the user
// look-ups other modules use in their transactions. Needs: the store, the clock, ids, the
// password hasher, the authorizer, send-mail.
// Other modules, src/http and compose.ts import this module through this file only (eslint.config.js).
export { createSignIn, THROTTLE } from './sign-in.ts';
export type { SignIn } from './sign-in.ts';
export { createAccountUsers } from './account-users.ts';
export type { AccountUsers, AccountUserView, InviteEntry } from './account-users.ts';
export {
  createAccountInvitations, INVITATION_SECONDS, inviteToAccount, joinAccount, pendingView, tooManyInvitations,
} from './account-invitations.ts';
export type { AccountInvitations, InviteDeps, InviteLimits, MyInvitation } from './account-invitations.ts';
export { invitationMail, quoteUntrusted } from './invitation-mails.ts';
export { createInvitations, PASSWORD_MAX, PASSWORD_MIN } from './invitations.ts';
export type { Invitations } from './invitations.ts';
export { createPasswordResets, PASSWORD_RESET, RESET_MAIL_JOB } from './password-resets.ts';
export type { PasswordResets } from './password-resets.ts';
export { resolveUser } from './resolve-users.ts';
export { createUserProfiles } from './user-profiles.ts';
export type { UserProfiles } from './user-profiles.ts';
// Its descriptor (needs, offers, jobs, tasks, seed extensions): module.ts, listed by src/compose.ts.
export { usersModule, type UsersOffers } from './module.ts';
