// The batched reads of API 1's find, on every engine: each answers, for many projects in one
// statement (none for no id), what its per-project read answers for each of them, in the
// same order (workzones.listByProjects ↔ listByProject,
// members.accessLists ↔ accessList, members.grantsWithZonesIn ↔ grantsOf,
// files.scanStatsByZones ↔ scanStatsByZone).
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { suiteStore, userRow } from '../support/suite-store.ts';
import { ENGINES } from '../support/database.ts';
import { queryLog } from '../support/query-counter.ts';
import { projectsRepo } from '../../src/modules/projects/postgres/projects-repo.ts';
import { workzonesRepo } from '../../src/modules/workzones/postgres/workzones-repo.ts';
import { membersRepo } from '../../src/modules/members/postgres/members-repo.ts';
import { filesRepo } from '../../src/modules/files/postgres/files-repo.ts';
import type { WorkzoneGrant } from '../../src/core/permissions/evaluate.ts';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);
const uuid = () => crypto.randomUUID();

/** Grants compared without their order (grantsOf answers them in no particular order). */
const grantKey = (g: WorkzoneGrant) => JSON.stringify([g.roleId, g.expiresAt?.toISOString() ?? null, [...g.permissions], [...g.workzoneIds].sort()]);
const sortedGrants = (list: WorkzoneGrant[]) => list.map(grantKey).sort();

for (const engine of ENGINES) {
  describe(`batched project reads on ${engine}`, () => {
    const suite = suiteStore(engine);
    const repos = suite.repos;
    const log = queryLog();
    /** The repositories over a counting Sql. */
    const counted = () => {
      const sql = log.wrapSql(suite.db.sql);
      return { projects: projectsRepo(sql), workzones: workzonesRepo(sql), members: membersRepo(sql), files: filesRepo(sql) };
    };

    const account = uuid();
    const otherAccount = uuid();
    const [owner, ursula, victor] = [uuid(), uuid(), uuid()];
    const group = uuid();
    const [viewer, surveyor] = [uuid(), uuid()];
    const sub = uuid();
    const otherSub = uuid();
    /** P1: root, A under it, B under A, C under the root; P2: its root only; P3: no member; Q in another account. */
    const P1 = { id: uuid(), root: uuid(), a: uuid(), b: uuid(), c: uuid() };
    const P2 = { id: uuid(), root: uuid() };
    const P3 = { id: uuid(), root: uuid() };
    const Q = { id: uuid(), root: uuid() };
    const ids = [P1.id, P2.id, P3.id];

    before(async () => {
      await suite.store.transaction(async (tx) => {
        for (const [id, email] of [[owner, 'owner'], [ursula, 'ursula'], [victor, 'victor']] as const) {
          await tx.users.insert(userRow(`${email}-${id}@batches.test`, { id }), T0);
        }
        await tx.accounts.insert({ id: account, name: `A ${account}`, ownerId: owner, createdBy: owner }, T0);
        await tx.accounts.insert({ id: otherAccount, name: `A ${otherAccount}`, ownerId: owner, createdBy: owner }, T0);
        for (const [id, acc] of [[sub, account], [otherSub, otherAccount]] as const) {
          await tx.subscriptions.insert({
            id, accountId: acc, name: 'S', isTrial: false, isVa: false, isActive: true, scanCapacity: 100, tagCapacity: 100,
            geoImageCapacity: 1, start: null, end: null, inviteAccountOwnerInNewProjects: false,
          }, T0);
        }
        for (const [id, name, permissions] of [[viewer, 'Viewer', ['workzone:view3d']], [surveyor, 'Surveyor', ['workzone:view3d', 'workzone:files:write']]] as const) {
          await tx.roles.insert({
            id, accountId: account, name, description: '', color: null, permissions: [...permissions], legacyPermissions: [], isBase: false, createdBy: owner,
          }, T0);
        }
        await tx.groups.insert({ id: group, accountId: account, name: 'G', description: '', color: null, createdBy: owner }, T0);
        await tx.groups.addMembers(group, [victor], T0);

        const project = async (p: { id: string; root: string }, acc: string, subscriptionId: string, created: Date) => {
          await tx.projects.insert({
            id: p.id, accountId: acc, subscriptionId, name: `P ${p.id}`, description: '', ownerId: owner, location: null, spatialReference: null,
            region: 'default', isDemo: false, rootWorkzoneId: p.root, coverBlobName: null, createdAt: created, createdBy: owner,
          });
          await tx.workzones.insert({ id: p.root, projectId: p.id, parentId: null, name: 'root', description: '', coverBlobName: null, createdAt: created, createdBy: owner });
        };
        await project(P1, account, sub, at(1));
        await project(P2, account, sub, at(2));
        await project(P3, account, sub, at(3));
        await project(Q, otherAccount, otherSub, at(4));
        // C is created before A (same depth: the order is by creation), B below A.
        for (const [id, parentId, s] of [[P1.c, P1.root, 5], [P1.a, P1.root, 6], [P1.b, P1.a, 7]] as const) {
          await tx.workzones.insert({ id, projectId: P1.id, parentId, name: id, description: '', coverBlobName: null, createdAt: at(s), createdBy: owner });
        }

        const member = async (projectId: string, type: 'user' | 'group', id: string, roleId: string, zones: string[], added: Date, expiresAt: Date | null = null) => {
          await tx.members.upsertMember({ projectId, memberType: type, memberId: id, roleId, expiresAt }, owner, added);
          await tx.members.grantAccess(projectId, type, id, zones);
        };
        // In P1, ursula, the owner and the group added at once (the order: users first, then by id), victor later.
        await member(P1.id, 'user', ursula, viewer, [P1.root, P1.a, P1.b, P1.c], at(10));
        await member(P1.id, 'group', group, surveyor, [P1.a, P1.b], at(10));
        await member(P1.id, 'user', owner, surveyor, [P1.root, P1.a, P1.b, P1.c], at(10));
        await member(P1.id, 'user', victor, viewer, [P1.c], at(11));
        await member(P2.id, 'user', ursula, surveyor, [P2.root], at(12), at(1000));
        await member(P2.id, 'group', group, viewer, [P2.root], at(13));

        const scan = async (projectId: string, workzoneId: string, size: number, category = 'scan') => {
          const id = uuid();
          await tx.files.insert({
            id, projectId, workzoneId, category, formatId: 1, name: id, extension: 'e57', size, md5: 'd41d8cd98f00b204e9800998ecf8427e',
            blobName: id, translation: null, rotation: null, scale: null, createdAt: T0, createdBy: owner, importedAt: null,
          });
        };
        await scan(P1.id, P1.root, 100);
        await scan(P1.id, P1.root, 50);
        await scan(P1.id, P1.b, 7);
        await scan(P1.id, P1.b, 9, 'document');
        await scan(P2.id, P2.root, 3);
        await scan(Q.id, Q.root, 1);
      });
    });

    test('workzones.listByProjects answers each project\'s zones as listByProject does (depth, then creation), in one statement', async () => {
      const r = counted();
      const { result, texts } = await log.measure(() => r.workzones.listByProjects([...ids, Q.id]));
      assert.equal(texts.length, 1);
      assert.deepEqual(result.get(P1.id)!.map((z) => z.id), [P1.root, P1.c, P1.a, P1.b]);
      for (const id of [...ids, Q.id]) assert.deepEqual(result.get(id), await repos.workzones.listByProject(id));
    });

    test('members.accessLists answers each project\'s members as accessList does (date added, users first, id), in one statement', async () => {
      const r = counted();
      const { result, texts } = await log.measure(() => r.members.accessLists(ids));
      assert.equal(texts.length, 1);
      assert.deepEqual(result.get(P1.id)!.map((m) => m.memberId), [...[owner, ursula].sort(), group, victor]);
      assert.equal(result.has(P3.id), false, 'a project without members is absent');
      for (const id of [P1.id, P2.id]) assert.deepEqual(result.get(id), await repos.members.accessList(id));
      assert.deepEqual(result.get(P2.id)!.find((m) => m.memberId === ursula)!.expiresAt, at(1000));
    });

    test('members.grantsWithZonesIn answers the user\'s grants in each project with every zone, as grantsOf does, in one statement', async () => {
      const r = counted();
      for (const user of [owner, ursula, victor]) {
        const { result, texts } = await log.measure(() => r.members.grantsWithZonesIn(ids, user));
        assert.equal(texts.length, 1);
        for (const id of ids) {
          const one = await repos.members.grantsOf(id, user);
          if (one.length === 0) assert.equal(result.has(id), false, 'a project without grants is absent');
          else assert.deepEqual(sortedGrants(result.get(id)!), sortedGrants(one));
        }
      }
      // victor: his own row on C and his group's on A and B of P1.
      const victors = (await repos.members.grantsWithZonesIn([P1.id], victor)).get(P1.id)!;
      assert.deepEqual(victors.map((g) => [g.roleId, [...g.workzoneIds].sort()]).sort(), [[viewer, [P1.c]], [surveyor, [P1.a, P1.b].sort()]].sort());
    });

    test('files.scanStatsByZones answers each project\'s scans per zone as scanStatsByZone does, in one statement', async () => {
      const r = counted();
      const { result, texts } = await log.measure(() => r.files.scanStatsByZones(ids));
      assert.equal(texts.length, 1);
      assert.deepEqual(result.get(P1.id), new Map([[P1.root, { scanCount: 2, scanSize: 150 }], [P1.b, { scanCount: 1, scanSize: 7 }]]));
      assert.equal(result.has(P3.id), false, 'a project without scans is absent');
      for (const id of [P1.id, P2.id]) assert.deepEqual(result.get(id), await repos.files.scanStatsByZone(id));
    });

    test('the same one statement for 1 project as for 3, and none for no project', async () => {
      const r = counted();
      const reads: ((list: string[]) => Promise<unknown[] | Map<string, unknown>>)[] = [
        (list: string[]) => r.workzones.listByProjects(list),
        (list: string[]) => r.members.accessLists(list),
        (list: string[]) => r.members.grantsWithZonesIn(list, ursula),
        (list: string[]) => r.files.scanStatsByZones(list),
      ];
      for (const read of reads) {
        assert.equal((await log.measure(() => read([P1.id]))).texts.length, 1);
        assert.equal((await log.measure(() => read(ids))).texts.length, 1);
        const none = await log.measure(() => read([]));
        assert.equal(none.texts.length, 0);
        assert.equal(Array.isArray(none.result) ? none.result.length : none.result.size, 0);
      }
    });
  });
}
