// The project-list scenario of the operations issue: a plain account member who is a
// Viewer in 1,000 projects lists the account's projects (every project's permissions
// evaluated, with its counts). The list must cost a fixed number of queries. The target row
// sends what Node's fetch (undici) sends, `accept-encoding: gzip, deflate` (Python's requests
// sends the same; browsers add br and zstd): every real client takes the ~950 kB answer
// gzipped. A second row sends no Accept-Encoding (identity), to keep the uncompressed figure
// visible.
import type { ScanbaseServer } from './servers.ts';
import type { BenchRequest } from './scenarios.ts';
import { accountWithMember, call } from './bench-account.ts';

export const LIST_MEMBER = { email: 'list-member@scanbase.test', password: 'list-member-password-1' };
const PROJECTS = 1000;
const SETUP_CONCURRENCY = 8;

const lists = new WeakMap<ScanbaseServer, Promise<BenchRequest>>();

/** What Node's fetch sends (node_modules/.bin/node 24, undici). */
export const FETCH_ACCEPT_ENCODING = 'gzip, deflate';

/** GET of the account's projects as a member of 1,000 of them, as Node's fetch asks (gzip). */
export async function projectListOfMember(server: ScanbaseServer): Promise<BenchRequest> {
  const r = await projectListOfMemberIdentity(server);
  return { ...r, headers: { ...r.headers, 'accept-encoding': FETCH_ACCEPT_ENCODING } };
}

/** The same GET with no Accept-Encoding: the uncompressed answer (the world is built once per server). */
export function projectListOfMemberIdentity(server: ScanbaseServer): Promise<BenchRequest> {
  let r = lists.get(server);
  if (!r) {
    r = (async () => {
      const acc = await accountWithMember(server, LIST_MEMBER, 'List');
      const member = { members: { users: [{ user: LIST_MEMBER.email, role: acc.viewerRoleId }] } };
      const addOne = async (i: number) => {
        const p = await call<{ id: string }>(server, acc.ownerToken, 'POST', `${acc.base}/projects`, { name: `List ${i}`, subscriptionId: acc.subscriptionId });
        await call(server, acc.ownerToken, 'POST', `${acc.base}/projects/${p.id}/members`, member);
      };
      // A few at a time: the set-up is 2,000 requests.
      for (let i = 0; i < PROJECTS; i += SETUP_CONCURRENCY) {
        await Promise.all(Array.from({ length: Math.min(SETUP_CONCURRENCY, PROJECTS - i) }, (_, k) => addOne(i + k)));
      }
      return { path: `${acc.base}/projects`, headers: { authorization: `Bearer ${await server.accessTokenFor(LIST_MEMBER.email)}` } };
    })();
    lists.set(server, r);
  }
  return r;
}
