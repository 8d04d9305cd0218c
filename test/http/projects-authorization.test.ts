// Who may call what on projects, work zones, members and the reports, derived from the
// spec ("Account-level roles", "Project and work zone roles", "Membership rules" 5–8,
// the permission notes of the vendor operations) and not from the implementation:
// every endpoint × every kind of caller → allowed, or the exact 403 code, on both API
// generations where the operation exists. A user of another account gets 404
// account-not-found, as for an account that does not exist (docs/security.md "Existence
// across tenants").
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import {
  A1, A2, GROUP_2_ID, PROJECT_ACTORS, SUB_A, SUB_B, addMembers, createProject, createZone, emailOf, projectWorld, uuidOf,
  type Method, type ProjectActor, type World,
} from '../support/projects.ts';

// ---- Who holds what, from the spec ----------------------------------------------------
// Project P is created by `projectOwner` (a project manager); `viewer` and `manager` are
// plain account members holding the Viewer and Manager base roles on P's root zone.
// `member` is a plain account member outside P; `outsider` belongs to another account.
const ACCOUNT_MEMBERS: ProjectActor[] = PROJECT_ACTORS.filter((a) => a !== 'outsider');
const HOLDERS = {
  // "Account-level roles": every invited user.
  'account:account:read': ACCOUNT_MEMBERS,
  // owner, administrator, project manager, project lister.
  'account:projects:list': ['owner', 'administrator', 'projectManager', 'projectLister', 'projectOwner'],
  // project manager only.
  'account:projects:create': ['projectManager', 'projectOwner'],
  // owner, administrator, project manager.
  'account:users:read': ['owner', 'administrator', 'projectManager', 'projectOwner'],
  // Rule 6: project:project:list (through account:projects:list) or membership (rule 5:
  // project:workzones:list) makes P visible; the project owner sees it (rule 7).
  visible: ['owner', 'administrator', 'projectManager', 'projectLister', 'viewer', 'manager', 'projectOwner'],
  // account:projects:update implies it (owner, administrator, project manager); the Manager
  // role holds create_project ("manage the project" row); rule 7.
  'project:project:update-details': ['owner', 'administrator', 'projectManager', 'manager', 'projectOwner'],
  // account:projects:delete implies it (project manager only); Manager role; rule 7.
  'project:project:delete': ['projectManager', 'manager', 'projectOwner'],
  // Vendor PUT/PATCH project: "to update everything: be the account owner, administrator, or project owner".
  'project:project:update-subscription': ['owner', 'administrator', 'projectOwner'],
  // Rule 5 (members) and rule 7.
  'project:workzones:list': ['viewer', 'manager', 'projectOwner'],
  'project:members:list': ['viewer', 'manager', 'projectOwner'],
  'workzone:workzones:read': ['viewer', 'manager', 'projectOwner'],
  // "create, modify, delete work zones": the Manager role; rule 7.
  'workzone:workzones:write': ['manager', 'projectOwner'],
  // account:users:write implies it on every zone (owner, administrator, project manager); Manager role; rule 7.
  'workzone:members:write': ['owner', 'administrator', 'projectManager', 'manager', 'projectOwner'],
  // Vendor copyWorkzone: workzones:read + reality-data:read + cad-model:read on the source,
  // workzones:write + reality-data:write + cad-model:write on the destination: the Manager role; rule 7.
  copy: ['manager', 'projectOwner'],
} satisfies Record<string, ProjectActor[]>;
type Holder = keyof typeof HOLDERS;

interface Case {
  name: string;
  method: Method;
  prepare: (w: World) => Promise<{ url: string; payload?: unknown }>;
  /** Who is allowed. */
  permission: Holder;
  /** What a refusal lists in requiredPermissions (API 2). */
  required: string;
  denied: string;
  /** Operations inside a project: callers who cannot see it get 403 not-member-of-project first. */
  inProject: boolean;
  /** Member-only reads: callers who see the project without being members (rule 6) get 403 not-member-of-project too. */
  memberOnly?: boolean;
  ok: number;
  /** Extra checks of an allowed call. */
  check?: (actor: ProjectActor, body: any) => void;
}

let t: TestApp;
let w: World;
/** P, with a child zone Z. */
let P: any;
let Z: any;
let n = 0;
const unique = (p: string) => `${p} ${++n}`;
const pOf = (p: any) => `${A2}/projects/${uuidOf(p.id)}`;

/** A project like P (owned by projectOwner, viewer and manager on its root), fresh for destructive cases. */
async function freshProject(): Promise<any> {
  const p = await createProject(w.as.projectOwner!, { name: unique('Fresh') });
  await addMembers(w.as.projectOwner!, p.id, {
    users: [{ user: emailOf('viewer'), role: w.roles.Viewer }, { user: emailOf('manager'), role: w.roles.Manager }],
  });
  return p;
}

const seesP = (actor: ProjectActor, body: any[], key: 'id' | 'api1') => {
  const ids = body.map((p) => p.id);
  const expected = (HOLDERS.visible as ProjectActor[]).includes(actor);
  assert.equal(ids.includes(key === 'id' ? P.id : P.api1Id), expected, `${actor} ${expected ? 'sees' : 'does not see'} P`);
};

const API2: Case[] = [
  {
    name: 'GET projects', method: 'GET', prepare: async () => ({ url: `${A2}/projects` }), permission: 'account:account:read',
    required: 'account:account:read', denied: 'list-projects-forbidden', inProject: false, ok: 200, check: (a, b) => seesP(a, b, 'id'),
  },
  {
    name: 'POST project', method: 'POST', prepare: async () => ({ url: `${A2}/projects`, payload: { name: unique('New'), subscriptionId: SUB_A } }),
    permission: 'account:projects:create', required: 'account:projects:create', denied: 'create-project-forbidden', inProject: false, ok: 201,
  },
  {
    name: 'GET project', method: 'GET', prepare: async () => ({ url: pOf(P) }), permission: 'visible', required: 'project:project:list',
    denied: 'not-member-of-project', inProject: true, ok: 200,
  },
  {
    name: 'PUT project (details)', method: 'PUT', permission: 'project:project:update-details', required: 'project:project:update-details',
    denied: 'update-project-forbidden', inProject: true, ok: 200,
    prepare: async () => ({ url: pOf(P), payload: { name: unique('Renamed'), subscriptionId: P.subscriptionId, ownerId: P.ownerId } }),
  },
  {
    name: 'PATCH project (details)', method: 'PATCH', permission: 'project:project:update-details', required: 'project:project:update-details',
    denied: 'update-project-forbidden', inProject: true, ok: 200,
    prepare: async () => ({ url: pOf(P), payload: { description: unique('About') } }),
  },
  {
    name: 'PATCH project subscription', method: 'PATCH', permission: 'project:project:update-subscription', required: 'project:project:update-subscription',
    denied: 'update-project-ownership-or-subscription-forbidden', inProject: true, ok: 200,
    prepare: async () => {
      const current = (await w.as.projectOwner!('GET', pOf(P))).body.subscriptionId;
      return { url: pOf(P), payload: { subscriptionId: uuidOf(current) === SUB_A ? SUB_B : SUB_A } };
    },
  },
  {
    name: 'PATCH project owner', method: 'PATCH', permission: 'project:project:update-subscription', required: 'project:project:update-owner',
    denied: 'update-project-ownership-or-subscription-forbidden', inProject: true, ok: 200,
    prepare: async () => ({ url: pOf(await freshProject()), payload: { ownerId: w.ids.projectManager } }),
    check: (_a, b) => assert.equal(uuidOf(b.ownerId), w.ids.projectManager),
  },
  {
    name: 'DELETE project', method: 'DELETE', permission: 'project:project:delete', required: 'project:project:delete',
    denied: 'delete-project-forbidden', inProject: true, ok: 204, prepare: async () => ({ url: pOf(await freshProject()) }),
  },
  {
    name: 'DELETE project permanently', method: 'DELETE', permission: 'project:project:delete', required: 'project:project:delete',
    denied: 'delete-project-forbidden', inProject: true, ok: 204,
    prepare: async () => {
      const p = await freshProject();
      assert.equal((await w.as.projectOwner!('DELETE', pOf(p))).status, 204);
      return { url: `${pOf(p)}?permanent=true` };
    },
  },
  {
    name: 'PUT project restore', method: 'PUT', permission: 'project:project:delete', required: 'project:project:delete',
    denied: 'restore-project-forbidden', inProject: true, ok: 200,
    prepare: async () => {
      const p = await freshProject();
      assert.equal((await w.as.projectOwner!('DELETE', pOf(p))).status, 204);
      return { url: `${pOf(p)}/restore` };
    },
  },
  {
    name: 'GET workzones', method: 'GET', prepare: async () => ({ url: `${pOf(P)}/workzones` }), permission: 'project:workzones:list',
    required: 'project:workzones:list', denied: 'list-workzones-forbidden', inProject: true, memberOnly: true, ok: 200,
    check: (_a, b) => assert.deepEqual(new Set(b.map((z: any) => z.id)).has(Z.id), true),
  },
  {
    name: 'POST workzone', method: 'POST', permission: 'workzone:workzones:write', required: 'workzone:workzones:write',
    denied: 'create-workzone-forbidden', inProject: true, ok: 201,
    prepare: async () => ({ url: `${pOf(P)}/workzones`, payload: { name: unique('Zone'), parentWorkzoneId: P.rootWorkzoneId } }),
  },
  {
    name: 'GET workzone', method: 'GET', prepare: async () => ({ url: `${pOf(P)}/workzones/${uuidOf(Z.id)}` }), permission: 'workzone:workzones:read',
    required: 'workzone:workzones:read', denied: 'view-workzone-forbidden', inProject: true, memberOnly: true, ok: 200,
  },
  {
    name: 'PUT workzone', method: 'PUT', permission: 'workzone:workzones:write', required: 'workzone:workzones:write',
    denied: 'update-workzone-forbidden', inProject: true, ok: 200,
    prepare: async () => ({ url: `${pOf(P)}/workzones/${uuidOf(Z.id)}`, payload: { name: unique('Zone Z'), description: 'z' } }),
  },
  {
    name: 'DELETE workzone', method: 'DELETE', permission: 'workzone:workzones:write', required: 'workzone:workzones:write',
    denied: 'delete-workzone-forbidden', inProject: true, ok: 204,
    prepare: async () => ({ url: `${pOf(P)}/workzones/${uuidOf((await createZone(w.as.projectOwner!, P.id, Z.id)).id)}` }),
  },
  {
    name: 'POST workzone copy', method: 'POST', permission: 'copy', required: 'workzone:workzones:read', denied: 'copy-workzone-forbidden',
    inProject: true, ok: 202,
    prepare: async () => {
      const p = await freshProject();
      const z = await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId);
      return { url: `${pOf(p)}/workzones/${uuidOf(z.id)}/copy`, payload: { destinationName: unique('Copy'), destinationProject: p.id } };
    },
  },
  {
    name: 'POST members', method: 'POST', permission: 'workzone:members:write', required: 'workzone:members:write',
    denied: 'add-project-members-forbidden', inProject: true, ok: 204,
    prepare: async () => ({ url: `${pOf(P)}/members`, payload: { members: { users: [{ user: emailOf('dave'), role: w.roles.Viewer }] } } }),
  },
  {
    name: 'GET members', method: 'GET', prepare: async () => ({ url: `${pOf(P)}/members` }), permission: 'project:members:list',
    required: 'project:members:list', denied: 'list-project-members-forbidden', inProject: true, memberOnly: true, ok: 200,
  },
  {
    // The spec names no permission; listing who reaches what is listing the members.
    name: 'GET members/access', method: 'GET', prepare: async () => ({ url: `${pOf(P)}/members/access` }), permission: 'project:members:list',
    required: 'project:members:list', denied: 'list-project-members-forbidden', inProject: true, memberOnly: true, ok: 200,
  },
  {
    name: 'POST members/bulk-remove', method: 'POST', permission: 'workzone:members:write', required: 'workzone:members:write',
    denied: 'remove-contributor-forbidden', inProject: true, ok: 204,
    prepare: async () => {
      await addMembers(w.as.projectOwner!, P.id, { users: [{ user: emailOf('erin'), role: w.roles.Viewer }] });
      return { url: `${pOf(P)}/members/bulk-remove`, payload: { users: [w.ids.erin] } };
    },
  },
  {
    name: 'DELETE members/users/{u}', method: 'DELETE', permission: 'workzone:members:write', required: 'workzone:members:write',
    denied: 'remove-contributor-forbidden', inProject: true, ok: 204,
    prepare: async () => {
      await addMembers(w.as.projectOwner!, P.id, { users: [{ user: emailOf('erin'), role: w.roles.Viewer }] });
      return { url: `${pOf(P)}/members/users/${w.ids.erin}` };
    },
  },
  {
    name: 'DELETE members/groups/{g}', method: 'DELETE', permission: 'workzone:members:write', required: 'workzone:members:write',
    denied: 'remove-contributor-forbidden', inProject: true, ok: 204,
    prepare: async () => {
      await addMembers(w.as.projectOwner!, P.id, { groups: [{ group: GROUP_2_ID, role: w.roles.Viewer }] });
      return { url: `${pOf(P)}/members/groups/${GROUP_2_ID}` };
    },
  },
  {
    name: 'DELETE workzones/{w}/members/users/{u}', method: 'DELETE', permission: 'workzone:members:write', required: 'workzone:members:write',
    denied: 'remove-contributor-from-work-zone-forbidden', inProject: true, ok: 204,
    prepare: async () => {
      const z = await createZone(w.as.projectOwner!, P.id, Z.id);
      await addMembers(w.as.projectOwner!, P.id, { users: [{ user: emailOf('frank'), role: w.roles.Viewer }] }, [z.id]);
      return { url: `${pOf(P)}/workzones/${uuidOf(z.id)}/members/users/${w.ids.frank}` };
    },
  },
];

const API1: Case[] = [
  {
    name: 'GET projects (find)', method: 'GET', prepare: async () => ({ url: `${A1}/projects` }), permission: 'account:account:read',
    required: 'account:account:read', denied: 'list-projects-forbidden', inProject: false, ok: 200, check: (a, b) => seesP(a, b, 'api1'),
  },
  {
    name: 'GET project', method: 'GET', prepare: async () => ({ url: `${A1}/projects/${P.api1Id}` }), permission: 'visible',
    required: 'project:project:list', denied: 'not-member-of-project', inProject: true, ok: 200,
  },
  {
    name: 'PATCH project subscription', method: 'PATCH', permission: 'project:project:update-subscription',
    required: 'project:project:update-subscription', denied: 'update-project-ownership-or-subscription-forbidden', inProject: true, ok: 200,
    prepare: async () => {
      const current = (await w.as.projectOwner!('GET', `${A1}/projects/${P.api1Id}`)).body.planId;
      const subs = (await w.as.owner!('GET', `${A1}/subscriptions`)).body as { id: string; name: string }[];
      const other = subs.find((s) => s.name === 'A')!.id === current ? subs.find((s) => s.name === 'B')! : subs.find((s) => s.name === 'A')!;
      return { url: `${A1}/projects/${P.api1Id}`, payload: [{ op: 'replace', path: current, value: other.id }] };
    },
    check: (_a, b) => assert.equal(typeof b.planId, 'string'),
  },
  {
    name: 'GET reports/projects-last-accessed', method: 'GET', prepare: async () => ({ url: `${A1}/reports/projects-last-accessed` }),
    permission: 'account:projects:list', required: 'account:projects:list', denied: 'view-report-forbidden', inProject: false, ok: 200,
  },
  {
    name: 'GET reports/users-last-activity', method: 'GET', prepare: async () => ({ url: `${A1}/reports/users-last-activity` }),
    permission: 'account:users:read', required: 'account:users:read', denied: 'view-report-forbidden', inProject: false, ok: 200,
  },
];

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
  P = await freshProject();
  Z = await createZone(w.as.projectOwner!, P.id, P.rootWorkzoneId, 'Zone Z');
});
after(async () => {
  await t.core.jobRunner.drain();
  await t.close();
});

for (const [generation, cases] of [['API 2', API2], ['API 1', API1]] as const) {
  describe(`${generation} authorization of projects, work zones, members and reports`, () => {
    for (const c of cases) {
      for (const actor of PROJECT_ACTORS) {
        const visible = (HOLDERS.visible as ProjectActor[]).includes(actor);
        // project:workzones:list marks a member (rule 5).
        const notMember = c.memberOnly && !(HOLDERS['project:workzones:list'] as ProjectActor[]).includes(actor);
        const hidden = c.inProject && (!visible || notMember);
        const allowed = !hidden && (HOLDERS[c.permission] as ProjectActor[]).includes(actor);
        const code = hidden ? 'not-member-of-project' : c.denied;
        const stranger = !ACCOUNT_MEMBERS.includes(actor);
        test(`${c.name} as ${actor}: ${allowed ? `answers ${c.ok}` : stranger ? 'answers 404 account-not-found' : `answers 403 ${code}`}`, async () => {
          const { url, payload } = await c.prepare(w);
          const res = await w.as[actor]!(c.method, url, payload);
          if (allowed) {
            assert.equal(res.status, c.ok, JSON.stringify(res.body));
            c.check?.(actor, res.body);
            return;
          }
          if (stranger) {
            assert.equal(res.status, 404, JSON.stringify(res.body));
            assert.equal(generation === 'API 2' ? res.body.errorCode : res.body.code, 'account-not-found');
            return;
          }
          assert.equal(res.status, 403, JSON.stringify(res.body));
          if (generation === 'API 2') {
            assert.match(String(res.headers['content-type']), /application\/problem\+json/);
            assert.equal(res.body.status, 403);
            assert.equal(res.body.errorCode, code);
            const required = hidden ? (visible ? 'project:workzones:list' : 'project:project:list') : c.required;
            assert.ok(res.body.errorValues?.requiredPermissions?.includes(required), `requires ${required}: ${JSON.stringify(res.body)}`);
          } else {
            assert.equal(res.body.code, code, JSON.stringify(res.body));
            assert.equal(typeof res.body.message, 'string');
          }
        });
      }
    }
  });
}

test('after the table: P keeps its zone Z and its members; erin (removed by the last, allowed, caller) is gone', async () => {
  const zones = (await w.as.projectOwner!('GET', `${pOf(P)}/workzones`)).body.map((z: any) => z.id);
  assert.ok(zones.includes(Z.id));
  const access = (await w.as.projectOwner!('GET', `${pOf(P)}/members/access`)).body;
  const emails = new Set(access.filter((m: any) => m.member.type === 'user').map((m: any) => m.member.email));
  for (const e of ['dave', 'manager', 'projectOwner', 'viewer']) assert.ok(emails.has(emailOf(e)), e);
  assert.ok(!emails.has(emailOf('erin')));
  assert.ok(!access.some((m: any) => m.member.type === 'group' && uuidOf(m.member.id) === GROUP_2_ID));
});

test('an unknown project answers 404 project-not-found (API 2 and API 1), an unknown work zone 404 workzone-not-found', async () => {
  const unknown = '99999999-9999-4999-8999-999999999999';
  const r2 = await w.as.owner!('GET', `${A2}/projects/${unknown}`);
  assert.equal(r2.status, 404);
  assert.equal(r2.body.errorCode, 'project-not-found');
  assert.deepEqual(r2.body.errorValues, { projectId: unknown });
  const r1 = await w.as.owner!('GET', `${A1}/projects/${unknown}`);
  assert.equal(r1.status, 404);
  assert.equal(r1.body.code, 'project-not-found');
  const rz = await w.as.projectOwner!('GET', `${pOf(P)}/workzones/${unknown}`);
  assert.equal(rz.status, 404);
  assert.equal(rz.body.errorCode, 'workzone-not-found');
  const bad = await w.as.owner!('GET', `${A2}/projects/urn:svc:workzone:${unknown}`);
  assert.equal(bad.status, 400);
  assert.equal(bad.body.errorCode, 'invalid-project-urn');
});
