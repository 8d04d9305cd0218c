// Model-based property test of the spec's "Membership rules" 1–8 (issue 4): fast-check
// runs random sequences of membership commands against the service through API 2 (as the
// project owner and the account owner) and, after every step, compares every checked
// user's effective permissions on every work zone, and at project level, as the engine
// answers them (the project scope every use case opens, caches included), with a small
// reference model written here independently of src/.
//
// What the model takes as data rather than re-deriving: the permissions of each role (read
// through GET …/roles, expanded by the role combination table, which role-rules tests cover
// on their own) and the account roles' project-level permissions (the spec's account table).
// The rules themselves — own role ∪ group roles, inheritance down the tree and into new
// zones, removal down and (with allowRemoveOnParents) up, materialised zones, the
// automatic member permissions, project:project:list through account:projects:list, the
// project owner, account:users:write ⇒ workzone:members:write, the root-annotations rule,
// and expiry by the service clock — are the model's own.
//
// Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL (the whole suite runs twice in CI).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { testApp, type TestApp } from '../support/app.ts';
import {
  A2, ACCOUNT_ID, ANNOTATOR_ID, SURVEYOR_ID, advanceClock, caller, createProject, emailOf, projectWorld, serviceNow, uuidOf,
  type Call, type World,
} from '../support/projects.ts';
import { effectiveRolePermissions } from '../../src/core/permissions/role-rules.ts';
import { DomainError } from '../../src/core/errors.ts';

let t: TestApp;
let w: World;
/** role id → its permissions (the role's data: GET …/roles, expanded by the combination table). */
const rolePermissions = new Map<string, string[]>();
/** Every workzone:* and project:* permission the engine can hand out (for rule 7). */
let allWorkzone: string[] = [];
let allProject: string[] = [];

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
  const roles = await w.as.owner!('GET', `${A2}/roles`);
  assert.equal(roles.status, 200);
  for (const r of roles.body) rolePermissions.set(uuidOf(r.id), [...effectiveRolePermissions(r.permissions)]);
  // The project owner's sets (rule 7), read once from a project he owns: the model checks
  // they stay whole whatever happens, and holds them as "everything".
  const p = await createProject(w.as.projectOwner!);
  const scope = await t.core.projectAccess.project({ userId: w.ids.projectOwner! }, { type: 'account', uuid: ACCOUNT_ID }, { type: 'project', uuid: uuidOf(p.id) });
  allWorkzone = [...scope.workzone(uuidOf(p.rootWorkzoneId))].sort();
  allProject = [...scope.permissions].sort();
  assert.ok(allWorkzone.includes('workzone:members:write') && allWorkzone.includes('workzone:tags:write'));
  assert.ok(allProject.includes('project:project:update-owner') && allProject.includes('project:integrations:write'));
});
after(() => t.close());

// ---- the reference model ------------------------------------------------------------

const PLAIN = ['alice', 'bob', 'carol', 'dave'] as const;
/** Users whose permissions are checked after every step. */
const CHECKED = [...PLAIN, 'administrator', 'projectLister', 'projectOwner'] as const;
type Checked = (typeof CHECKED)[number];
/** Project-level permissions that come from account roles (the spec's account table), not from membership. */
const FROM_ACCOUNT_ROLE: Record<Checked, string[]> = {
  alice: [], bob: [], carol: [], dave: [],
  // account:projects:list, account:projects:update, owner and subscription changes
  administrator: ['project:project:list', 'project:project:update-details', 'project:project:update-owner', 'project:project:update-subscription'],
  projectLister: ['project:project:list'],
  projectOwner: [],
};
/** account:users:write holders get workzone:members:write on every zone. */
const MANAGES_USERS: ReadonlySet<Checked> = new Set(['administrator']);
const ROOT_INTEGRATIONS = ['project:annotations:create-integration-link', 'project:integrations:read', 'project:integrations:write'];

type MemberKey = `user:${string}` | `group:${string}`;
interface ModelMember { role: string; expiresAt: number | null; zones: Set<string> }

class Model {
  parent = new Map<string, string | null>();
  members = new Map<MemberKey, ModelMember>();
  groups = new Map<string, Set<string>>();
  root: string;
  now: number;
  constructor(root: string, now: number) {
    this.root = root;
    this.now = now;
    this.parent.set(root, null);
  }
  get zones(): string[] {
    return [...this.parent.keys()];
  }
  /** The zone and everything below it. */
  subtree(z: string): Set<string> {
    const out = new Set([z]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const [c, p] of this.parent) if (p && out.has(p) && !out.has(c)) { out.add(c); grew = true; }
    }
    return out;
  }
  ancestors(z: string): string[] {
    const out: string[] = [];
    for (let p = this.parent.get(z) ?? null; p; p = this.parent.get(p) ?? null) out.push(p);
    return out;
  }
  active(m: ModelMember): boolean {
    return m.expiresAt === null || m.expiresAt > this.now;
  }
  /** The memberships reaching a user: his own and his groups'. */
  reaching(userId: string): ModelMember[] {
    const out: ModelMember[] = [];
    const own = this.members.get(`user:${userId}`);
    if (own) out.push(own);
    for (const [g, users] of this.groups) {
      const m = this.members.get(`group:${g}`);
      if (m && users.has(userId)) out.push(m);
    }
    return out.filter((m) => this.active(m) && m.zones.size > 0);
  }
  zonePermissions(who: Checked, userId: string, zone: string): string[] {
    if (who === 'projectOwner') return allWorkzone; // rule 7
    const out = new Set<string>();
    for (const m of this.reaching(userId)) {
      if (!m.zones.has(zone)) continue; // rule 2, materialised (rule 4)
      for (const p of rolePermissions.get(m.role)!) if (p.startsWith('workzone:')) out.add(p); // rule 1
      out.add('workzone:workzones:read'); // rule 5
    }
    if (MANAGES_USERS.has(who)) out.add('workzone:members:write');
    return [...out].sort();
  }
  /** null: the user may not see the project (403 not-member-of-project). */
  projectPermissions(who: Checked, userId: string): string[] | null {
    if (who === 'projectOwner') return allProject; // rule 7
    const out = new Set<string>(FROM_ACCOUNT_ROLE[who]); // rule 6 and the account table
    const reaching = this.reaching(userId);
    if (reaching.length) {
      out.add('project:workzones:list'); // rule 5
      out.add('project:members:list');
      for (const m of reaching) {
        for (const p of rolePermissions.get(m.role)!) if (p.startsWith('project:')) out.add(p);
        if (m.zones.has(this.root) && rolePermissions.get(m.role)!.includes('workzone:annotations:write')) {
          ROOT_INTEGRATIONS.forEach((p) => out.add(p)); // rule 8
        }
      }
    }
    if (!reaching.length && !out.has('project:project:list')) return null; // rule 6: not visible
    return [...out].sort();
  }

  // commands
  createZone(id: string, parent: string): void {
    this.parent.set(id, parent);
    for (const m of this.members.values()) if (m.zones.has(parent)) m.zones.add(id); // rule 2: inherits the parent's members
  }
  /** Answers the error code the service must give, or null. */
  add(key: MemberKey, role: string, zones: string[], expiresAt: number | null): string | null {
    const current = this.members.get(key);
    if (current && current.role !== role) return 'member-has-another-role';
    const m = current ?? { role, expiresAt, zones: new Set<string>() };
    m.expiresAt = expiresAt; // project-wide, overriding
    for (const z of zones) for (const s of this.subtree(z)) m.zones.add(s);
    this.members.set(key, m);
    return null;
  }
  removeWhole(key: MemberKey): void {
    this.members.delete(key);
  }
  removeFromZone(userId: string, zone: string, allowOnParents: boolean): string | null {
    const m = this.members.get(`user:${userId}`);
    if (!m) return null;
    const parents = this.ancestors(zone).filter((z) => m.zones.has(z));
    if (parents.length && !allowOnParents) return 'invalid-input'; // rule 3
    for (const z of [...this.subtree(zone), ...parents]) m.zones.delete(z);
    if (m.zones.size === 0) this.members.delete(`user:${userId}`); // rule 1: no zone, no member
    return null;
  }
}

// ---- the real system and the check ----------------------------------------------------

interface Real {
  project: any;
  /** model zone ids in creation order (index 0 is the root) */
  zoneIds: string[];
  groups: string[];
  owner: Call;
  accountOwner: Call;
}

const HOUR = 3600_000;

/** How often each outcome happened over the whole run (printed, so a reader sees what was exercised). */
const seen = new Map<string, number>();
const count = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);

async function expectStatus(res: { status: number; body: any }, code: string | null, ok: number, what: string) {
  count(`${what.slice(0, what.indexOf('('))} → ${code ?? ok}`);
  if (code === null) assert.equal(res.status, ok, `${what}: ${JSON.stringify(res.body)}`);
  else {
    assert.equal(res.status, 400, `${what}: expected 400 ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
    assert.equal(res.body.errorCode, code, what);
  }
}

async function check(m: Model, r: Real, log: string[]): Promise<void> {
  const accountRef = { type: 'account' as const, uuid: ACCOUNT_ID };
  const projectRef = { type: 'project' as const, uuid: uuidOf(r.project.id) };
  for (const who of CHECKED) {
    const userId = w.ids[who]!;
    const expectedProject = m.projectPermissions(who, userId);
    let scope;
    try {
      scope = await t.core.projectAccess.project({ userId }, accountRef, projectRef, { record: false });
    } catch (e) {
      assert.ok(e instanceof DomainError, String(e));
      assert.equal(e.code, 'not-member-of-project', `${who}: ${e.message}\n${log.join('\n')}`);
      assert.equal(expectedProject, null, `${who} may see the project per the model\n${log.join('\n')}`);
      continue;
    }
    if (m.members.get(`user:${userId}`) && !m.active(m.members.get(`user:${userId}`)!)) count('checked an expired member');
    assert.deepEqual([...scope.permissions].sort(), expectedProject, `${who}: project permissions\n${log.join('\n')}`);
    for (const z of m.zones) {
      assert.deepEqual([...scope.workzone(z)].sort(), m.zonePermissions(who, userId, z), `${who} on zone ${r.zoneIds.indexOf(z)}\n${log.join('\n')}`);
    }
  }
  // Rule 4: the access list shows every zone of every member, expanded.
  const access = await r.owner('GET', `${A2}/projects/${uuidOf(r.project.id)}/members/access`);
  assert.equal(access.status, 200);
  const listed = new Map<string, string[]>(
    access.body.map((e: any) => [`${e.member.type}:${uuidOf(e.member.id)}`, e.workzoneIds.map(uuidOf).sort()]),
  );
  for (const [key, mm] of m.members) {
    if (key === `user:${w.ids.projectOwner}`) continue;
    assert.deepEqual(listed.get(key), [...mm.zones].sort(), `access list of ${key}\n${log.join('\n')}`);
  }
  for (const key of listed.keys()) {
    if (key === `user:${w.ids.projectOwner}`) continue;
    assert.ok(m.members.has(key as MemberKey), `${key} is listed but not a member per the model\n${log.join('\n')}`);
  }
}

// ---- commands -----------------------------------------------------------------------

type Cmd = fc.AsyncCommand<Model, Real>;
const pick = <T>(list: readonly T[], i: number): T => list[i % list.length]!;
const subjectArb = fc.oneof(
  fc.record({ kind: fc.constant('user' as const), i: fc.nat(PLAIN.length + 1) }),
  fc.record({ kind: fc.constant('group' as const), i: fc.nat(1) }),
);
/** Candidates for membership: the plain users, the administrator and the project lister. */
const CANDIDATES = [...PLAIN, 'administrator', 'projectLister'] as const;
const subjectKey = (s: { kind: 'user' | 'group'; i: number }, r: Real): MemberKey =>
  s.kind === 'user' ? `user:${w.ids[pick(CANDIDATES, s.i)]!}` : `group:${pick(r.groups, s.i)}`;

class CreateZone implements Cmd {
  readonly parent: number;
  constructor(parent: number) {
    this.parent = parent;
  }
  check = () => true;
  async run(m: Model, r: Real) {
    const parent = pick(r.zoneIds, this.parent);
    const res = await r.owner('POST', `${A2}/projects/${uuidOf(r.project.id)}/workzones`, { name: `Z${r.zoneIds.length}`, parentWorkzoneId: parent });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const id = uuidOf(res.body.id);
    r.zoneIds.push(id);
    m.createZone(id, parent);
  }
  toString = () => `createZone(under ${this.parent})`;
}

class AddMember implements Cmd {
  readonly subject: { kind: 'user' | 'group'; i: number };
  readonly role: number;
  readonly zones: number[] | null;
  /** hours (+ half an hour, so that clock steps of whole hours never land on it) */
  readonly expiresInHours: number | null;
  constructor(subject: { kind: 'user' | 'group'; i: number }, role: number, zones: number[] | null, expiresInHours: number | null) {
    this.subject = subject;
    this.role = role;
    this.zones = zones;
    this.expiresInHours = expiresInHours;
  }
  check = () => true;
  async run(m: Model, r: Real) {
    const roles = [w.roles.Manager, w.roles.Contributor, w.roles.Viewer, ANNOTATOR_ID, SURVEYOR_ID];
    const role = pick(roles, this.role);
    const zones = this.zones === null ? [m.root] : [...new Set(this.zones.map((z) => pick(r.zoneIds, z)))];
    const expiresAt = this.expiresInHours === null ? null : m.now + this.expiresInHours * HOUR + HOUR / 2;
    const key = subjectKey(this.subject, r);
    const id = key.slice(key.indexOf(':') + 1);
    const entry = { role, expirationDate: expiresAt === null ? null : new Date(expiresAt).toISOString() };
    const members = this.subject.kind === 'user'
      ? { users: [{ user: emailOf(pick(CANDIDATES, this.subject.i)), ...entry }] }
      : { groups: [{ group: id, ...entry }] };
    const res = await r.owner('POST', `${A2}/projects/${uuidOf(r.project.id)}/members`, {
      members, ...(this.zones === null ? {} : { workzones: zones }),
    });
    await expectStatus(res, m.add(key, role, zones, expiresAt), 204, this.toString());
  }
  toString = () => `add(${this.subject.kind} ${this.subject.i}, role ${this.role}, zones ${this.zones ? this.zones.join('+') : 'root'}, expires ${this.expiresInHours ?? 'never'})`;
}

class ChangeRole implements Cmd {
  // There is no change-role operation: a client removes the member and adds him again
  // with the new role on the same zones (the one-role rule refuses a second role).
  readonly subject: { kind: 'user' | 'group'; i: number };
  readonly role: number;
  constructor(subject: { kind: 'user' | 'group'; i: number }, role: number) {
    this.subject = subject;
    this.role = role;
  }
  check = () => true;
  async run(m: Model, r: Real) {
    const key = subjectKey(this.subject, r);
    const current = m.members.get(key);
    if (!current || key === `user:${w.ids.projectOwner}`) return;
    const roles = [w.roles.Manager, w.roles.Contributor, w.roles.Viewer, ANNOTATOR_ID, SURVEYOR_ID];
    const role = pick(roles, this.role);
    const id = key.slice(key.indexOf(':') + 1);
    const p = `${A2}/projects/${uuidOf(r.project.id)}`;
    const zones = [...current.zones];
    const expiry = current.expiresAt;
    if (role !== current.role) {
      // Asking for another role without removing first is refused (one role per member).
      const entry = { role, expirationDate: null };
      const refused = await r.owner('POST', `${p}/members`, {
        members: this.subject.kind === 'user' ? { users: [{ user: emailOf(pick(CANDIDATES, this.subject.i)), ...entry }] } : { groups: [{ group: id, ...entry }] },
      });
      await expectStatus(refused, 'member-has-another-role', 204, `${this}: direct`);
    }
    const del = await r.owner('DELETE', `${p}/members/${this.subject.kind}s/${id}`);
    assert.equal(del.status, 204, JSON.stringify(del.body));
    m.removeWhole(key);
    if (expiry !== null && expiry <= m.now) return; // cannot be re-added with a past date: stays removed
    const entry = { role, expirationDate: expiry === null ? null : new Date(expiry).toISOString() };
    const res = await r.owner('POST', `${p}/members`, {
      members: this.subject.kind === 'user' ? { users: [{ user: emailOf(pick(CANDIDATES, this.subject.i)), ...entry }] } : { groups: [{ group: id, ...entry }] },
      workzones: zones,
    });
    await expectStatus(res, m.add(key, role, zones, expiry), 204, this.toString());
  }
  toString = () => `changeRole(${this.subject.kind} ${this.subject.i}, role ${this.role})`;
}

class RemoveWhole implements Cmd {
  readonly subject: { kind: 'user' | 'group'; i: number };
  constructor(subject: { kind: 'user' | 'group'; i: number }) {
    this.subject = subject;
  }
  check = () => true;
  async run(m: Model, r: Real) {
    const key = subjectKey(this.subject, r);
    const id = key.slice(key.indexOf(':') + 1);
    const res = await r.owner('DELETE', `${A2}/projects/${uuidOf(r.project.id)}/members/${this.subject.kind}s/${id}`);
    assert.equal(res.status, 204, JSON.stringify(res.body));
    m.removeWhole(key);
  }
  toString = () => `removeWhole(${this.subject.kind} ${this.subject.i})`;
}

class RemoveFromZone implements Cmd {
  readonly user: number;
  readonly zone: number;
  readonly allowOnParents: boolean;
  constructor(user: number, zone: number, allowOnParents: boolean) {
    this.user = user;
    this.zone = zone;
    this.allowOnParents = allowOnParents;
  }
  check = () => true;
  async run(m: Model, r: Real) {
    // Mostly a current direct member (else nearly every removal would be of a non-member).
    const direct = [...m.members.keys()].filter((k) => k.startsWith('user:') && k !== `user:${w.ids.projectOwner}`).sort();
    const userId = direct.length && this.user % 4 !== 0 ? pick(direct, this.user).slice(5) : w.ids[pick(CANDIDATES, this.user)]!;
    const zone = pick(r.zoneIds, this.zone);
    const res = await r.owner(
      'DELETE',
      `${A2}/projects/${uuidOf(r.project.id)}/workzones/${zone}/members/users/${userId}${this.allowOnParents ? '?allowRemoveOnParents=true' : ''}`,
    );
    await expectStatus(res, m.removeFromZone(userId, zone, this.allowOnParents), 204, this.toString());
  }
  toString = () => `removeFromZone(user ${this.user}, zone ${this.zone}, allowRemoveOnParents ${this.allowOnParents})`;
}

class GroupMembership implements Cmd {
  readonly group: number;
  readonly user: number;
  readonly add: boolean;
  constructor(group: number, user: number, add: boolean) {
    this.group = group;
    this.user = user;
    this.add = add;
  }
  check = () => true;
  async run(m: Model, r: Real) {
    const g = pick(r.groups, this.group);
    const userId = w.ids[pick(CANDIDATES, this.user)]!;
    const res = await r.accountOwner(this.add ? 'POST' : 'DELETE', `${A2}/groups/${g}/members`, [userId]);
    if (!this.add && !m.groups.get(g)!.has(userId)) {
      await expectStatus(res, 'users-not-in-groups', 200, this.toString());
      return;
    }
    assert.ok(res.status === 204 || res.status === 200, `${this}: ${res.status} ${JSON.stringify(res.body)}`);
    if (this.add) m.groups.get(g)!.add(userId);
    else m.groups.get(g)!.delete(userId);
  }
  toString = () => `${this.add ? 'joinGroup' : 'leaveGroup'}(group ${this.group}, user ${this.user})`;
}

class AdvanceClock implements Cmd {
  readonly hours: number;
  constructor(hours: number) {
    this.hours = hours;
  }
  check = () => true;
  async run(m: Model, r: Real) {
    await advanceClock(t, this.hours * 3600);
    m.now += this.hours * HOUR;
    // Access tokens live an hour: the callers sign in again, as a client would refresh.
    Object.assign(r, await callers());
  }
  toString = () => `advanceClock(${this.hours} h)`;
}

const zoneIndex = fc.nat(7);
const createZone = fc.nat(7).map((p) => new CreateZone(p));
const addMember = fc
  .tuple(subjectArb, fc.nat(4), fc.option(fc.array(zoneIndex, { minLength: 1, maxLength: 2 }), { nil: null }), fc.option(fc.nat(5), { nil: null }))
  .map(([s, role, zones, exp]) => new AddMember(s, role, zones, exp));
const removeFromZone = fc.tuple(fc.nat(CANDIDATES.length - 1), zoneIndex, fc.boolean()).map(([u, z, f]) => new RemoveFromZone(u, z, f));
// Zones, additions and zone removals are listed more than once: they weigh more in the mix.
const commands = [
  createZone, createZone,
  addMember, addMember, addMember,
  removeFromZone, removeFromZone,
  fc.tuple(subjectArb, fc.nat(4)).map(([s, role]) => new ChangeRole(s, role)),
  subjectArb.map((s) => new RemoveWhole(s)),
  fc.tuple(fc.nat(1), fc.nat(CANDIDATES.length - 1), fc.boolean()).map(([g, u, add]) => new GroupMembership(g, u, add)),
  fc.integer({ min: 1, max: 4 }).map((h) => new AdvanceClock(h)),
];

/** Fresh tokens for the two acting users (the service clock moves by hours). */
async function callers(): Promise<Pick<Real, 'owner' | 'accountOwner'>> {
  return {
    owner: caller(t, (await t.tokens(emailOf('projectOwner'))).access_token),
    accountOwner: caller(t, (await t.tokens(emailOf('owner'))).access_token),
  };
}

const RUNS = Number(process.env.MODEL_RUNS ?? 25);

test('membership rules 1–8: the engine agrees with the reference model after every step of random command sequences', async (ctx) => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.commands(commands, { maxCommands: 20, size: 'max' }), async (cmds) => {
      run++;
      const acting = await callers();
      const project = await createProject(acting.owner, { name: `Model ${run} ${Math.random().toString(36).slice(2, 6)}` });
      // Fresh groups per run (the account's groups outlive a run): alice+bob, and carol.
      const groups: string[] = [];
      for (const [name, users] of [[`F${run}-${Date.now() % 1e6}`, ['alice', 'bob']], [`O${run}-${Date.now() % 1e6}`, ['carol']]] as const) {
        const g = await acting.accountOwner('POST', `${A2}/groups`, { name });
        assert.equal(g.status, 201, JSON.stringify(g.body));
        const add = await acting.accountOwner('POST', `${A2}/groups/${uuidOf(g.body.id)}/members`, users.map((u) => w.ids[u]));
        assert.ok(add.status < 300, JSON.stringify(add.body));
        groups.push(uuidOf(g.body.id));
      }
      const root = uuidOf(project.rootWorkzoneId);
      const model = new Model(root, (await serviceNow(t)).getTime());
      for (const [i, g] of groups.entries()) model.groups.set(g, new Set((i === 0 ? ['alice', 'bob'] : ['carol']).map((u) => w.ids[u]!)));
      // The creator joins the root as Manager (docs/projects.md).
      model.members.set(`user:${w.ids.projectOwner}`, { role: w.roles.Manager, expiresAt: null, zones: new Set([root]) });
      const real: Real = { project, zoneIds: [root], groups, ...acting };
      const log: string[] = [];
      await check(model, real, log);
      for (const c of cmds) {
        log.push(`  ${c}`);
        await c.run(model, real);
        await check(model, real, log);
      }
    }),
    { numRuns: RUNS, endOnFailure: true },
  );
  ctx.diagnostic([...seen].sort().map(([k, n]) => `${k}: ${n}`).join('; '));
});
