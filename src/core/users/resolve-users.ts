// Resolves a user reference (null when it names no user).
import type { EntityRef } from '../ids/urn.ts';
import { findByRef } from '../ids/refs.ts';
import type { Repos, UserRecord } from '../ports/repositories.ts';

export async function resolveUser(repos: Pick<Repos, 'users'>, ref: EntityRef): Promise<UserRecord | null> {
  return findByRef(repos.users, ref);
}
