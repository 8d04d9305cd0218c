// The work-zone depth scenario of the projects issue: a member of a project with 1,000
// work zones 10 levels deep reads a zone at depth 1 and at depth 10. Membership is
// materialised per zone, so the authorized read should cost the same at any depth.
import type { ScanbaseServer } from './servers.ts';
import { accountWithMember, call } from './bench-account.ts';
import type { BenchRequest } from './scenarios.ts';

export const DEPTH_MEMBER = { email: 'depth-member@scanbase.test', password: 'depth-member-password-1' };
const ZONES = 1000;
const DEPTH = 10;

interface Tree {
  accountId: string;
  projectId: string;
  /** spine[i] is the zone at depth i + 1. */
  spine: string[];
  memberToken: string;
}

const trees = new WeakMap<ScanbaseServer, Promise<Tree>>();

/** Builds the project once per server: a spine of 10 nested zones, the rest spread under it. */
function tree(server: ScanbaseServer): Promise<Tree> {
  let t = trees.get(server);
  if (!t) {
    t = (async () => {
      const acc = await accountWithMember(server, DEPTH_MEMBER, 'Depth');
      const owner = acc.ownerToken;
      const A = acc.base;
      const project = await call<{ id: string; rootWorkzoneId: string }>(server, owner, 'POST', `${A}/projects`, {
        name: 'Depth', subscriptionId: acc.subscriptionId,
      });
      const P = `${A}/projects/${project.id}`;
      const spine: string[] = [];
      let parent = project.rootWorkzoneId;
      for (let d = 1; d <= DEPTH; d++) {
        parent = (await call<{ id: string }>(server, owner, 'POST', `${P}/workzones`, { name: `Level ${d}`, parentWorkzoneId: parent })).id;
        spine.push(parent);
      }
      for (let i = DEPTH + 1; i < ZONES; i++) {
        await call(server, owner, 'POST', `${P}/workzones`, { name: `Zone ${i}`, parentWorkzoneId: spine[i % DEPTH] });
      }
      // Granted on the root: materialised on every one of the 1,000 zones.
      await call(server, owner, 'POST', `${P}/members`, { members: { users: [{ user: DEPTH_MEMBER.email, role: acc.viewerRoleId }] } });
      return { accountId: acc.accountId, projectId: project.id, spine, memberToken: await server.accessTokenFor(DEPTH_MEMBER.email) };
    })();
    trees.set(server, t);
  }
  return t;
}

/** GET of the spine zone at `depth` (1 or 10) as the member. */
export const workzoneAtDepth =
  (depth: number) =>
  async (server: ScanbaseServer): Promise<BenchRequest> => {
    const t = await tree(server);
    return {
      path: `/api/2/accounts/${t.accountId}/projects/${t.projectId}/workzones/${t.spine[depth - 1]}`,
      headers: { authorization: `Bearer ${t.memberToken}` },
    };
  };
