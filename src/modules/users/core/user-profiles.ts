// What the service's own pages show of a user (the sign-in approval page, the account
// page) and the bearer's own profile (GET /oauth/userinfo): read by user id, without an actor.
import { readsOf, storeReads, type ReadsOf } from '../../../core/ports/store-slices.ts';

/** The pages' view of users. */
export interface UserProfiles {
  /** The e-mail of the user a signed-in session names; null when the user is gone. */
  emailOf(userId: string): Promise<string | null>;
  /** The signed-in user's own profile (GET /oauth/userinfo: the bearer's, so no permission to check); null when the user is gone. */
  ownProfile(userId: string): Promise<{ email: string; firstName: string; lastName: string } | null>;
}

/** What it reads of the store (src/core/ports/store-slices.ts). */
export const USER_PROFILES_READS = storeReads(['users']);

export function createUserProfiles(deps: { store: ReadsOf<typeof USER_PROFILES_READS> }): UserProfiles {
  const store = readsOf(deps.store, USER_PROFILES_READS);
  return {
    async emailOf(userId) {
      return (await store.repos.users.byId(userId))?.email ?? null;
    },
    async ownProfile(userId) {
      const user = await store.repos.users.byId(userId);
      return user && { email: user.email, firstName: user.firstName, lastName: user.lastName };
    },
  };
}
