// What the users' browser pages call (routes.ts, account.ts).
import type { Revocation, WebSessions } from '../../../oauth/index.ts';
import type { SsoSignIn } from '../../../sso/index.ts';
import type { AccountInvitations } from '../../core/account-invitations.ts';
import type { Invitations } from '../../core/invitations.ts';
import type { PasswordResets } from '../../core/password-resets.ts';
import type { SignIn } from '../../core/sign-in.ts';
import type { UserProfiles } from '../../core/user-profiles.ts';

/**
 * What the users' pages call: the module's own use cases, the oauth module's browser sessions
 * and revocation, and the sso module's sign-in (listed after users; the pages call it at
 * request time, when every module is built).
 */
export interface UserPagesUse {
  config: { publicUrl: string; sandbox: boolean };
  accountInvitations: AccountInvitations;
  invitations: Invitations;
  passwordResets: PasswordResets;
  signIn: SignIn;
  userProfiles: UserProfiles;
  revocation: Revocation;
  webSessions: WebSessions;
  ssoSignIn: SsoSignIn;
}
