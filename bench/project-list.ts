// The project-list scenario of the operations issue: a plain account member who is a
// Viewer in 1,000 projects lists the account's projects (every project's permissions
// evaluated, with its counts). The list must cost a fixed number of queries.
import type { ScanbaseServer } from './servers.ts';
import { BENCH_USER } from './servers.ts';
import type { BenchRequest } from './scenarios.ts';
import { call } from './workzone-depth.ts';

export const LIST_MEMBER = { email: 'list-member@scanbase.test', password: 'list-member-password-1' };
const PROJECTS = 1000;

const lists = new WeakMap<ScanbaseServer, Promise<BenchRequest>>();

/** GET of the account's projects as a member of 1,000 of them (built once per server). */
export function projectListOfMember(server: ScanbaseServer): Promise<BenchRequest> {
  let r = lists.get(server);
  if (!r) {
    r = (async () => {
      const account = server.seeded.accounts[0]!;
      await server.operator('POST', '/seed', {
        users: [{ ...LIST_MEMBER, firstName: 'List', lastName: 'Member' }],
        accounts: [{ name: 'Bench', owner: BENCH_USER.email, projectManagers: [BENCH_USER.email], members: [LIST_MEMBER.email] }],
      });
      const owner = await server.accessTokenFor(BENCH_USER.email);
      const A = `/api/2/accounts/${account.id}`;
      const subscriptions = await call<{ id: string }[]>(server, owner, 'GET', `${A}/subscriptions`);
      const roles = await call<{ id: string; name: string }[]>(server, owner, 'GET', `${A}/roles`);
      const viewer = roles.find((x) => x.name === 'Viewer')!;
      for (let i = 0; i < PROJECTS; i++) {
        const p = await call<{ id: string }>(server, owner, 'POST', `${A}/projects`, { name: `List ${i}`, subscriptionId: subscriptions[0]!.id });
        await call(server, owner, 'POST', `${A}/projects/${p.id}/members`, { members: { users: [{ user: LIST_MEMBER.email, role: viewer.id }] } });
      }
      return { path: `${A}/projects`, headers: { authorization: `Bearer ${await server.accessTokenFor(LIST_MEMBER.email)}` } };
    })();
    lists.set(server, r);
  }
  return r;
}
