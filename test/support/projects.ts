// The project world of the project, work-zone and member tests: one account with a user
// in each account-level role, a project owner (a project manager who created the
// project), project members with the base roles, a plain account member outside the
// project, a user of another account; and helpers that create projects, zones and
// members through API 2 and read the operator outbox and clock.
import assert from 'node:assert/strict';
import type { TestApp } from './app.ts';
import { OPERATOR_TOKEN } from './app.ts';

export const ACCOUNT_ID = 'a1111111-1111-4111-8111-111111111111';
export const OTHER_ACCOUNT_ID = 'a2222222-2222-4222-8222-222222222222';
/** Active subscriptions A and B (owner not invited), an inactive one, and one inviting the owner. */
export const SUB_A = 'b1111111-1111-4111-8111-111111111111';
export const SUB_B = 'b2222222-2222-4222-8222-222222222222';
export const SUB_INACTIVE = 'b3333333-3333-4333-8333-333333333333';
export const SUB_INVITE = 'b4444444-4444-4444-8444-444444444444';
export const GROUP_ID = 'c1111111-1111-4111-8111-111111111111';
export const GROUP_2_ID = 'c2222222-2222-4222-8222-222222222222';
/** Custom roles: Surveyor (view3d + upload), Annotator (view3d + annotate), Assistant (Manager-like without tags:write). */
export const SURVEYOR_ID = 'd1111111-1111-4111-8111-111111111111';
export const ANNOTATOR_ID = 'd2222222-2222-4222-8222-222222222222';
export const ASSISTANT_ID = 'd3333333-3333-4333-8333-333333333333';
export const TAGGER_ID = 'd4444444-4444-4444-8444-444444444444';

/**
 * The callers of the authorization table. `viewer` and `manager` are plain account
 * members who are project members with the Viewer and Manager base roles; `member` is a
 * plain account member outside the project; `projectOwner` created the project (project
 * creation needs account:projects:create, so he is a project manager of the account).
 */
export const PROJECT_ACTORS = [
  'owner', 'administrator', 'projectManager', 'projectLister', 'viewer', 'manager', 'member', 'outsider', 'projectOwner',
] as const;
export type ProjectActor = (typeof PROJECT_ACTORS)[number];

export const emailOf = (name: string) => `${name.toLowerCase()}@proj.test`;

/** Spare account members the tests add to projects and remove again. */
export const SPARE = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi'] as const;

export const PROJECT_SEED = {
  users: [...PROJECT_ACTORS, ...SPARE, 'other-owner'].map((a) => ({
    email: emailOf(a), password: `${a}-password-1`, firstName: a, lastName: 'Test', company: 'Proj Inc',
  })),
  accounts: [
    {
      id: ACCOUNT_ID,
      name: 'Proj',
      owner: emailOf('owner'),
      administrators: [emailOf('administrator')],
      projectManagers: [emailOf('projectManager'), emailOf('projectOwner')],
      projectListers: [emailOf('projectLister')],
      members: [emailOf('viewer'), emailOf('manager'), emailOf('member'), ...SPARE.map(emailOf)],
      subscriptions: [
        { id: SUB_A, name: 'A', isActive: true, inviteAccountOwnerInNewProjects: false },
        { id: SUB_B, name: 'B', isActive: true, inviteAccountOwnerInNewProjects: false },
        { id: SUB_INACTIVE, name: 'Inactive', isActive: false, inviteAccountOwnerInNewProjects: false },
        { id: SUB_INVITE, name: 'Invite', isActive: true, inviteAccountOwnerInNewProjects: true },
      ],
      roles: [
        { id: SURVEYOR_ID, name: 'Surveyor', legacyPermissions: ['view3d', 'upload'] },
        { id: ANNOTATOR_ID, name: 'Annotator', legacyPermissions: ['view3d', 'annotate'] },
        { id: TAGGER_ID, name: 'Tagger', legacyPermissions: ['view_asset', 'create_asset'] },
        {
          id: ASSISTANT_ID, name: 'Assistant',
          legacyPermissions: ['workzone', 'view3d', 'annotate', 'view_annotation', 'measure', 'upload', 'download', 'upload_doc', 'manage_users', 'view_asset', 'view_savedview'],
        },
      ],
      groups: [
        { id: GROUP_ID, name: 'Field team', users: [emailOf('alice'), emailOf('bob')] },
        { id: GROUP_2_ID, name: 'Office team', users: [emailOf('carol')] },
      ],
    },
    { id: OTHER_ACCOUNT_ID, name: 'Elsewhere', owner: emailOf('other-owner'), members: [emailOf('outsider')], subscriptions: [{ name: 'Basic' }] },
  ],
};

export const A2 = `/api/2/accounts/${ACCOUNT_ID}`;
export const A1 = `/api/accounts/${ACCOUNT_ID}`;

export interface Res {
  status: number;
  body: any;
  headers: Record<string, unknown>;
}
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type Call = (method: Method, url: string, payload?: unknown) => Promise<Res>;

/** Calls as the bearer of `token`. */
export function caller(t: TestApp, token: string): Call {
  return async (method, url, payload) => {
    const res = await t.app.inject({
      method, url, payload: payload as object | undefined, headers: { authorization: `Bearer ${token}` },
    });
    let body: unknown = res.body;
    try {
      body = res.body ? res.json() : null;
    } catch {
      /* not JSON */
    }
    return { status: res.statusCode, body, headers: res.headers };
  };
}

export const uuidOf = (urn: string): string => urn.slice(urn.lastIndexOf(':') + 1);
export const urn = (type: string, id: string) => `urn:svc:${type}:${id}`;

export interface World {
  t: TestApp;
  /** user ids by actor/spare name */
  ids: Record<string, string>;
  /** API callers by actor/spare name */
  as: Record<string, Call>;
  /** the base roles' ids */
  roles: { Manager: string; Contributor: string; Viewer: string };
}

/** Seeds the project world and opens a caller per user. */
export async function projectWorld(t: TestApp): Promise<World> {
  const seeded = await t.seed(PROJECT_SEED);
  const ids: Record<string, string> = {};
  const as: Record<string, Call> = {};
  for (const name of [...PROJECT_ACTORS, ...SPARE]) {
    ids[name] = seeded.users.find((u: { email: string }) => u.email === emailOf(name)).id;
    as[name] = caller(t, (await t.tokens(emailOf(name))).access_token);
  }
  const roles = await as.owner!('GET', `${A2}/roles`);
  assert.equal(roles.status, 200, JSON.stringify(roles.body));
  const base = (n: string) => uuidOf(roles.body.find((r: { name: string }) => r.name === n).id);
  return { t, ids, as, roles: { Manager: base('Manager'), Contributor: base('Contributor'), Viewer: base('Viewer') } };
}

/** Creates a project (201 asserted) and answers its API 2 body. */
export async function createProject(call: Call, fields: Record<string, unknown> = {}): Promise<any> {
  const res = await call('POST', `${A2}/projects`, { name: `Project ${Math.random().toString(36).slice(2, 8)}`, subscriptionId: SUB_A, ...fields });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** Creates a work zone under `parent` (201 asserted). */
export async function createZone(call: Call, projectId: string, parent: string, name = `Zone ${Math.random().toString(36).slice(2, 8)}`): Promise<any> {
  const res = await call('POST', `${A2}/projects/${uuidOf(projectId)}/workzones`, { name, parentWorkzoneId: parent });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

export interface MemberSpec {
  users?: { user: string; role: string; expirationDate?: string | null }[];
  groups?: { group: string; role: string; expirationDate?: string | null }[];
}

/** POST …/members; answers the response (no assertion). */
export const postMembers = (call: Call, projectId: string, members: MemberSpec, workzones?: string[] | null) =>
  call('POST', `${A2}/projects/${uuidOf(projectId)}/members`, { members, ...(workzones !== undefined ? { workzones } : {}) });

/** POST …/members, 204 asserted. */
export async function addMembers(call: Call, projectId: string, members: MemberSpec, workzones?: string[] | null): Promise<void> {
  const res = await postMembers(call, projectId, members, workzones);
  assert.equal(res.status, 204, JSON.stringify(res.body));
}

/** GET …/members/access as `call`, 200 asserted. */
export async function accessList(call: Call, projectId: string): Promise<any[]> {
  const res = await call('GET', `${A2}/projects/${uuidOf(projectId)}/members/access`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** The access entry of a user (by id) or group, or undefined. */
export const entryOf = (access: any[], type: 'user' | 'group', id: string) =>
  access.find((m) => m.member.type === type && uuidOf(m.member.id) === id);

/** The project's `permissions` as `call` sees them. */
export async function projectPermissionsOf(call: Call, projectId: string): Promise<string[]> {
  const res = await call('GET', `${A2}/projects/${uuidOf(projectId)}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.permissions;
}

const op = { authorization: `Bearer ${OPERATOR_TOKEN}` };

/** The e-mails the service sent, newest first. */
export async function outbox(t: TestApp): Promise<{ to: string; subject: string; text: string; links: string[]; sentAt: string }[]> {
  const res = await t.app.inject({ method: 'GET', url: '/_operator/outbox', headers: op });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** Moves the sandbox clock forward. */
export async function advanceClock(t: TestApp, seconds: number): Promise<{ now: string; offsetSeconds: number }> {
  const res = await t.app.inject({ method: 'POST', url: '/_operator/clock', headers: op, payload: { advanceSeconds: seconds } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** The service's "now". */
export async function serviceNow(t: TestApp): Promise<Date> {
  const res = await t.app.inject({ method: 'GET', url: '/_operator/clock', headers: op });
  assert.equal(res.statusCode, 200, res.body);
  return new Date(res.json().now);
}

/** Asserts an API 2 problem with the status and errorCode. */
export function assertProblem(res: Res, status: number, code: string): any {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.status, status);
  assert.equal(typeof res.body.title, 'string');
  assert.equal(res.body.errorCode, code, JSON.stringify(res.body));
  return res.body;
}

/** Asserts an API 1 error with the status and code. */
export function assertApi1Error(res: Res, status: number, code: string): any {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.code, code, JSON.stringify(res.body));
  assert.equal(typeof res.body.message, 'string');
  return res.body;
}
