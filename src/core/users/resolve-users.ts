// Resolves user references that must name members of an account (404 user-not-found otherwise).
import { notFound } from '../errors.ts';
import { type EntityRef, refValue } from '../ids/urn.ts';
import { findByRef } from '../ids/refs.ts';
import type { Repos, UserRecord } from '../ports/repositories.ts';

export async function resolveUser(repos: Pick<Repos, 'users'>, ref: EntityRef): Promise<UserRecord | null> {
  return findByRef(repos.users, ref);
}

export async function resolveAccountUsers(repos: Pick<Repos, 'accounts' | 'users'>, accountId: string, refs: EntityRef[]): Promise<UserRecord[]> {
  const out = new Map<string, UserRecord>();
  for (const ref of refs) {
    const user = await resolveUser(repos, ref);
    const member = user && (await repos.accounts.member(accountId, user.id));
    if (!user || !member) throw notFound('user', refValue(ref));
    out.set(user.id, user);
  }
  return [...out.values()];
}
