// What the member scenarios share: an HTTP call as a bearer, and the seeded account with
// one more plain member, as its owner (a project manager, so he creates projects) sees it.
import type { ScanbaseServer } from './servers.ts';
import { BENCH_USER } from './servers.ts';

export async function call<T>(server: ScanbaseServer, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

export interface BenchAccount {
  accountId: string;
  /** /api/2/accounts/{accountId} */
  base: string;
  ownerToken: string;
  subscriptionId: string;
  viewerRoleId: string;
}

/** Seeds `member` into the bench account (a plain member) and answers the owner's view of it. */
export async function accountWithMember(server: ScanbaseServer, member: { email: string; password: string }, name: string): Promise<BenchAccount> {
  const account = server.seeded.accounts[0]!;
  await server.operator('POST', '/seed', {
    users: [{ ...member, firstName: name, lastName: 'Member' }],
    // Only project managers create projects (spec "Account-level roles").
    accounts: [{ name: 'Bench', owner: BENCH_USER.email, projectManagers: [BENCH_USER.email], members: [member.email] }],
  });
  const ownerToken = await server.accessTokenFor(BENCH_USER.email);
  const base = `/api/2/accounts/${account.id}`;
  const subscriptions = await call<{ id: string }[]>(server, ownerToken, 'GET', `${base}/subscriptions`);
  const roles = await call<{ id: string; name: string }[]>(server, ownerToken, 'GET', `${base}/roles`);
  return { accountId: account.id, base, ownerToken, subscriptionId: subscriptions[0]!.id, viewerRoleId: roles.find((r) => r.name === 'Viewer')!.id };
}
