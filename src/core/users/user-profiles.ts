// What the service's own pages show of a user (the sign-in approval page, the account
// page): read by user id, without an actor (the page has checked the session).
import type { StoreReads } from '../ports/store-slices.ts';

/** The pages' view of users. */
export interface UserProfiles {
  /** The e-mail of the user a signed-in session names; null when the user is gone. */
  emailOf(userId: string): Promise<string | null>;
}

export function createUserProfiles(deps: { store: StoreReads<'users'> }): UserProfiles {
  const { store } = deps;
  return {
    async emailOf(userId) {
      return (await store.repos.users.byId(userId))?.email ?? null;
    },
  };
}
