// The users module's contract (src/modules/contract.ts): sign-in (throttled), the users of an
// account and their invitations, password resets, the one-time links' set-password, what the
// service's pages show of a user; its repositories (the one-time links, the pending invitations
// to accounts, the invitation caps' counters), the routes of both APIs, their operation docs,
// its events (with the caches they make stale) and error codes.
import { defineModule } from '../contract.ts';
import { invalidationRules } from '../../core/events/invalidation.ts';
import type { GroupsRepos } from '../groups/index.ts';
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { PasswordHasher } from '../../core/ports/crypto.ts';
import type { Authorizer } from '../../core/permissions/authorizer.ts';
import type { MailRepos, SendMail } from '../mail/index.ts';
import type { JobRunner } from '../jobs/index.ts';
import { createSignIn, type SignIn } from './core/sign-in.ts';
import { createAccountUsers, type AccountUsers } from './core/account-users.ts';
import { createInvitations, type Invitations } from './core/invitations.ts';
import { createPasswordResets, RESET_MAIL_JOB, type PasswordResets } from './core/password-resets.ts';
import { createUserProfiles, type UserProfiles } from './core/user-profiles.ts';
import { type AccountInvitations, createAccountInvitations, type InviteLimits } from './core/account-invitations.ts';
import type { JobsRepos } from '../jobs/index.ts';
import type { MembersRepos } from '../members/index.ts';
import type { AccountsRepos } from '../accounts/index.ts';
import type { OauthRepos } from '../oauth/index.ts';
import type { ProjectsRepos } from '../projects/index.ts';
import type { UsersRepos } from './core/ports.ts';
import type { UserEventType } from './core/events.ts';
import { USER_ERROR_CODES } from './core/errors.ts';
import { invitationsRepo } from './postgres/invitations-repo.ts';
import { accountInvitationsRepo } from './postgres/account-invitations-repo.ts';
import { countersRepo } from './postgres/counters-repo.ts';
import { userRoutes as api1Routes } from './http/api1.ts';
import { userRoutes as api2Routes } from './http/api2.ts';
import { USER_API1_OPERATIONS, USER_API2_OPERATIONS } from './http/operations.ts';
import { pageRoutes } from './http/pages/routes.ts';

export interface UsersNeeds {
  /** The groups and members modules' repositories too: a user removed from the account leaves its groups and its projects. */
  store: Store<Repos & UsersRepos & ProjectsRepos & AccountsRepos & GroupsRepos & MembersRepos & JobsRepos & MailRepos & OauthRepos>;
  clock: Clock;
  ids: Ids;
  hasher: PasswordHasher;
  authorizer: Authorizer;
  sendMail: SendMail;
  /** Queues the "Forgot password?" work off the request path. */
  jobRunner: JobRunner;
  /** The projects module's rule: the owner of a project of the account cannot be removed from it. */
  ownedProjects: (repos: ProjectsRepos, userId: string, accountId: string) => Promise<string[]>;
  config: { publicUrl: string; invitations: InviteLimits };
}

export interface UsersOffers {
  signIn: SignIn;
  accountUsers: AccountUsers;
  invitations: Invitations;
  passwordResets: PasswordResets;
  userProfiles: UserProfiles;
  accountInvitations: AccountInvitations;
}

const { user, accountAndUser, withLists } = invalidationRules;

export const usersModule = defineModule<UsersNeeds, UsersOffers, UsersRepos, UserEventType, keyof typeof USER_ERROR_CODES>({
  name: 'users',
  feature: {
    name: 'users',
    enqueues: [RESET_MAIL_JOB],
    create: ({ store, clock, ids, hasher, authorizer, sendMail, jobRunner, ownedProjects, config }) => {
      const passwordResets = createPasswordResets({ store, clock, ids, sendMail, jobs: jobRunner, publicUrl: config.publicUrl });
      return {
        offers: {
          signIn: createSignIn({ store, clock, hasher }),
          accountUsers: createAccountUsers({ store, clock, ids, authorizer, sendMail, publicUrl: config.publicUrl, limits: config.invitations, ownedProjects }),
          invitations: createInvitations({ store, clock, hasher }),
          passwordResets,
          userProfiles: createUserProfiles({ store }),
          accountInvitations: createAccountInvitations({ store, clock }),
        },
        jobs: { [RESET_MAIL_JOB]: passwordResets.handler },
      };
    },
  },
  repositories: { invitations: invitationsRepo, accountInvitations: accountInvitationsRepo, counters: countersRepo },
  // Its browser pages (invitations, password resets, the account page, avatars) are built on the
  // HTTP layer's pages kit and browser session (src/http/oauth), as the oauth and sso pages are.
  routes: { api1: api1Routes, api2: api2Routes, other: { plugin: pageRoutes, browser: true } },
  operations: { api1: USER_API1_OPERATIONS, api2: USER_API2_OPERATIONS },
  invalidation: {
    'user.invitation-declined': withLists(accountAndUser),
    // Every session of the user ended (his revocation point moved): his known-user entry goes,
    // so each node's bearer check reads the new point at his next request.
    'user.password-set': user,
    'user.password-reset-requested': invalidationRules.nothing,
  },
  errorCodes: USER_ERROR_CODES,
});
