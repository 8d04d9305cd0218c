// Resolves a user reference (null when it names no user).
import type { EntityRef } from '../../../core/ids/urn.ts';
import { findByRef } from '../../../core/ids/refs.ts';
import type { Repos, UserRecord } from '../../../core/ports/repositories.ts';

export async function resolveUser(repos: Pick<Repos, 'users'>, ref: EntityRef): Promise<UserRecord | null> {
  return findByRef(repos.users, ref);
}
