// The users module's descriptor (src/core/modules.ts).
import type { FeatureModule } from '../modules.ts';
import type { Repos, Store } from '../ports/repositories.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { PasswordHasher } from '../ports/crypto.ts';
import type { Authorizer } from '../permissions/authorizer.ts';
import type { SendMail } from '../mail/index.ts';
import { createSignIn, type SignIn } from './sign-in.ts';
import { createAccountUsers, type AccountUsers } from './account-users.ts';
import { createInvitations, type Invitations } from './invitations.ts';
import { createPasswordResets, type PasswordResets } from './password-resets.ts';
import { createUserProfiles, type UserProfiles } from './user-profiles.ts';

export interface UsersNeeds {
  store: Store;
  clock: Clock;
  ids: Ids;
  hasher: PasswordHasher;
  authorizer: Authorizer;
  sendMail: SendMail;
  /** The projects module's rule: the owner of a project of the account cannot be removed from it. */
  ownedProjects: (repos: Repos, userId: string, accountId: string) => Promise<string[]>;
  config: { publicUrl: string };
}

export interface UsersOffers {
  signIn: SignIn;
  accountUsers: AccountUsers;
  invitations: Invitations;
  passwordResets: PasswordResets;
  userProfiles: UserProfiles;
}

export const usersModule: FeatureModule<UsersNeeds, UsersOffers> = {
  name: 'users',
  create: ({ store, clock, ids, hasher, authorizer, sendMail, ownedProjects, config }) => ({
    offers: {
      signIn: createSignIn({ store, clock, hasher }),
      accountUsers: createAccountUsers({ store, clock, ids, authorizer, sendMail, publicUrl: config.publicUrl, ownedProjects }),
      invitations: createInvitations({ store, clock, hasher }),
      passwordResets: createPasswordResets({ store, clock, ids, sendMail, publicUrl: config.publicUrl }),
      userProfiles: createUserProfiles({ store }),
    },
  }),
};
