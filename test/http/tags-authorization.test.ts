// Who may call what on tag lists and tags, derived from the spec ("Account-level roles":
// no tag permission; the base roles: Viewer holds view_asset = workzone:tags:read, Manager
// every role permission; membership rule 7: the project owner holds everything; "view
// tags" = workzone:tags:read, "edit tags" = workzone:tags:write) and the vendor's notes,
// not from the implementation: every endpoint × every kind of caller → allowed, or the
// exact 403 code, on both API generations; a user of another account gets 404
// account-not-found. Mirrors projects-authorization.test.ts.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { scanIn } from '../support/tags.ts';
import { A1, A2, PROJECT_ACTORS, addMembers, createProject, emailOf, projectWorld, uuidOf, type Method, type ProjectActor, type World } from '../support/projects.ts';

const HOLDERS = {
  // Rule 6: project:project:list (account:projects:list) or membership makes P visible; rule 7.
  visible: ['owner', 'administrator', 'projectManager', 'projectLister', 'viewer', 'manager', 'projectOwner'],
  // Rule 5: members (their project:workzones:list marks them); reading tag lists is for members only.
  member: ['viewer', 'manager', 'projectOwner'],
  'workzone:tags:read': ['viewer', 'manager', 'projectOwner'],
  'workzone:tags:write': ['manager', 'projectOwner'],
} satisfies Record<string, ProjectActor[]>;
type Holder = keyof typeof HOLDERS;

interface Case {
  name: string;
  method: Method;
  prepare: () => Promise<{ url: string; payload?: unknown }>;
  permission: Holder;
  denied: string;
  ok: number;
}

let t: TestApp;
let w: World;
let P: any;
let L: any;
let SCAN: string;
let n = 0;
const lists = () => `${A2}/projects/${uuidOf(P.id)}/tag-lists`;
const lists1 = () => `${A1}/projects/${P.api1Id}/tag-lists`;

/** A fresh list (with one tag) for the cases that change or delete it. */
async function freshList(): Promise<{ list: any; tag: any }> {
  const res = await w.as.projectOwner!('POST', lists(), { workzoneId: P.rootWorkzoneId, tagListType: '3d', name: `Fresh ${++n}` });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const b = await w.as.projectOwner!('POST', `${lists()}/${uuidOf(res.body.id)}/tags/bulk`, { create: [{ data: { id: 't', boundingBox: [0, 0, 0, 1, 1, 1] } }] });
  assert.equal(b.status, 200, JSON.stringify(b.body));
  return { list: res.body, tag: b.body.created[0] };
}
const listBody = (name: string) => ({ workzoneId: P.rootWorkzoneId, tagListType: '3d', name });

const API2: Case[] = [
  { name: 'GET tag-lists', method: 'GET', permission: 'workzone:tags:read', denied: 'list-tag-lists-forbidden', ok: 200, prepare: async () => ({ url: lists() }) },
  { name: 'POST tag-lists', method: 'POST', permission: 'workzone:tags:write', denied: 'create-tag-list-forbidden', ok: 201, prepare: async () => ({ url: lists(), payload: listBody(`New ${++n}`) }) },
  { name: 'GET tag-list', method: 'GET', permission: 'workzone:tags:read', denied: 'view-tag-list-forbidden', ok: 200, prepare: async () => ({ url: `${lists()}/${uuidOf(L.id)}` }) },
  { name: 'GET tags', method: 'GET', permission: 'workzone:tags:read', denied: 'view-tag-list-forbidden', ok: 200, prepare: async () => ({ url: `${lists()}/${uuidOf(L.id)}/tags?afterVersion=0` }) },
  {
    name: 'PUT tag-list', method: 'PUT', permission: 'workzone:tags:write', denied: 'update-tag-list-forbidden', ok: 200,
    prepare: async () => ({ url: `${lists()}/${uuidOf((await freshList()).list.id)}`, payload: listBody('Renamed') }),
  },
  {
    name: 'DELETE tag-list', method: 'DELETE', permission: 'workzone:tags:write', denied: 'delete-tag-list-forbidden', ok: 204,
    prepare: async () => ({ url: `${lists()}/${uuidOf((await freshList()).list.id)}` }),
  },
  {
    name: 'POST tag-lists/bulk-update', method: 'POST', permission: 'workzone:tags:write', denied: 'update-tag-list-forbidden', ok: 200,
    prepare: async () => ({ url: `${lists()}/bulk-update`, payload: [{ id: (await freshList()).list.id, ...listBody('Bulk renamed') }] }),
  },
  {
    name: 'POST tag-lists/bulk-delete', method: 'POST', permission: 'workzone:tags:write', denied: 'delete-tag-list-forbidden', ok: 204,
    prepare: async () => ({ url: `${lists()}/bulk-delete`, payload: { ids: [(await freshList()).list.id] } }),
  },
  {
    name: 'POST tags/bulk', method: 'POST', permission: 'workzone:tags:write', denied: 'update-tag-list-forbidden', ok: 200,
    prepare: async () => {
      const f = await freshList();
      return { url: `${lists()}/${uuidOf(f.list.id)}/tags/bulk`, payload: { create: [{ data: { id: 'n' } }], delete: [f.tag.id] } };
    },
  },
  {
    name: 'POST tags/bulk-move', method: 'POST', permission: 'workzone:tags:write', denied: 'update-tag-list-forbidden', ok: 200,
    prepare: async () => {
      const [from, to] = [await freshList(), await freshList()];
      return { url: `${lists()}/${uuidOf(to.list.id)}/tags/bulk-move`, payload: [{ sourceTagListId: from.list.id, tagsIds: [from.tag.id] }] };
    },
  },
  {
    name: 'POST ai-detection', method: 'POST', permission: 'workzone:tags:write', denied: 'update-tag-list-forbidden', ok: 200,
    prepare: async () => ({ url: `${lists()}/${uuidOf((await freshList()).list.id)}/ai-detection`, payload: { classes: ['valve'], filesIds: [SCAN] } }),
  },
];

const API1: Case[] = [
  { name: 'GET tag-lists', method: 'GET', permission: 'workzone:tags:read', denied: 'list-tag-lists-forbidden', ok: 200, prepare: async () => ({ url: lists1() }) },
  {
    name: 'POST tag-lists', method: 'POST', permission: 'workzone:tags:write', denied: 'create-tag-list-forbidden', ok: 200,
    prepare: async () => ({ url: lists1(), payload: { parentId: uuidOf(P.rootWorkzoneId), data: { name: `New ${++n}` }, insert: [{ id: 'x' }] } }),
  },
  { name: 'GET tag-list', method: 'GET', permission: 'workzone:tags:read', denied: 'view-tag-list-forbidden', ok: 200, prepare: async () => ({ url: `${lists1()}/${L.api1Id}?since=2000-01-01` }) },
  {
    name: 'PUT tag-list', method: 'PUT', permission: 'workzone:tags:write', denied: 'update-tag-list-forbidden', ok: 200,
    prepare: async () => {
      const f = await freshList();
      return { url: `${lists1()}/${f.list.api1Id}`, payload: { data: { name: 'R' }, insert: [{ id: 'y' }], delete: [f.tag.api1Id] } };
    },
  },
  {
    name: 'DELETE tag-list', method: 'DELETE', permission: 'workzone:tags:write', denied: 'delete-tag-list-forbidden', ok: 200,
    prepare: async () => ({ url: `${lists1()}/${(await freshList()).list.api1Id}` }),
  },
];

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
  P = await createProject(w.as.projectOwner!, { name: 'Tags authorization' });
  await addMembers(w.as.projectOwner!, P.id, {
    users: [{ user: emailOf('viewer'), role: w.roles.Viewer }, { user: emailOf('manager'), role: w.roles.Manager }],
  });
  L = (await freshList()).list;
  SCAN = await scanIn(t.core, P.id, P.rootWorkzoneId);
});
after(async () => {
  await t.core.jobRunner.drain();
  await t.close();
});

for (const [generation, cases] of [['API 2', API2], ['API 1', API1]] as const) {
  describe(`${generation} authorization of tag lists and tags`, () => {
    for (const c of cases) {
      for (const actor of PROJECT_ACTORS) {
        const visible = (HOLDERS.visible as ProjectActor[]).includes(actor);
        const hidden = !visible || (c.method === 'GET' && !(HOLDERS.member as ProjectActor[]).includes(actor));
        const allowed = !hidden && (HOLDERS[c.permission] as ProjectActor[]).includes(actor);
        const code = hidden ? 'not-member-of-project' : c.denied;
        // A user of another account learns nothing of this one (docs/security.md "Existence across tenants").
        const stranger = actor === 'outsider';
        test(`${c.name} as ${actor}: ${allowed ? `answers ${c.ok}` : stranger ? 'answers 404 account-not-found' : `answers 403 ${code}`}`, async () => {
          const { url, payload } = await c.prepare();
          const res = await w.as[actor]!(c.method, url, payload);
          if (allowed) {
            assert.equal(res.status, c.ok, JSON.stringify(res.body));
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
            assert.equal(res.body.errorCode, code);
            const required = hidden ? (visible ? 'project:workzones:list' : 'project:project:list') : c.permission;
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
