// The users module's descriptor (src/core/modules.ts).
import type { GroupsRepos } from '../../modules/groups/index.ts';
import type { FeatureModule } from '../modules.ts';
import type { Repos, Store } from '../ports/repositories.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { PasswordHasher } from '../ports/crypto.ts';
import type { Authorizer } from '../permissions/authorizer.ts';
import type { SendMail } from '../mail/index.ts';
import type { JobRunner } from '../../modules/jobs/index.ts';
import { createSignIn, type SignIn } from './sign-in.ts';
import { createAccountUsers, type AccountUsers } from './account-users.ts';
import { createInvitations, type Invitations } from './invitations.ts';
import { createPasswordResets, RESET_MAIL_JOB, type PasswordResets } from './password-resets.ts';
import { createUserProfiles, type UserProfiles } from './user-profiles.ts';
import { type AccountInvitations, createAccountInvitations, type InviteLimits } from './account-invitations.ts';
import type { JobsRepos } from '../../modules/jobs/index.ts';
import type { MembersRepos } from '../../modules/members/index.ts';
import type { AccountsRepos } from '../../modules/accounts/index.ts';
import type { OauthRepos } from '../../modules/oauth/index.ts';

export interface UsersNeeds {
  /** The groups and members modules' repositories too: a user removed from the account leaves its groups and its projects. */
  store: Store<Repos & AccountsRepos & GroupsRepos & MembersRepos & JobsRepos & OauthRepos>;
  clock: Clock;
  ids: Ids;
  hasher: PasswordHasher;
  authorizer: Authorizer;
  sendMail: SendMail;
  /** Queues the "Forgot password?" work off the request path. */
  jobRunner: JobRunner;
  /** The projects module's rule: the owner of a project of the account cannot be removed from it. */
  ownedProjects: (repos: Pick<Repos, 'projects'>, userId: string, accountId: string) => Promise<string[]>;
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

export const usersModule: FeatureModule<UsersNeeds, UsersOffers> = {
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
};
