// Request fidelity, unknown fields (docs/security.md "Request fidelity"): every write body
// refuses undeclared properties with 400 invalid-input naming the property, on both API
// generations and the operator surface; a walk over every registered route's body schema
// fails when one is left open without being in the documented list below.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { testApp, OPERATOR_TOKEN, type TestApp } from '../support/app.ts';
import {
  A1, A2, SUB_A, addMembers, assertApi1Error, assertProblem, createProject, emailOf, projectWorld, uuidOf, type World,
} from '../support/projects.ts';
import { closeSchema } from '../../src/http/strict-bodies.ts';

/**
 * Bodies deliberately open, and why. OAuth requests are forms whose unrecognised parameters
 * MUST be ignored (RFC 6749 §3.1, RFC 7009 §2.1); the set-password page is an HTML form;
 * API 1's `update` is a map keyed by tag ids (its values are closed); /sso/start is the sign-in
 * page's form like /oauth/login; an annotation's `savedView` is the viewer's state, which the
 * vendor's schema keeps open beside its `type` (stored and given back as sent, docs/annotations.md),
 * and so is a share link's (the same SavedViewData, docs/share-links.md).
 */
const OPEN_BODIES: Record<string, string[]> = {
  'POST /oauth/token': ['body'],
  'POST /oauth/revoke': ['body'],
  'POST /oauth/login': ['body'],
  'POST /oauth/authorize': ['body'],
  'POST /oauth/logout': ['body'],
  'POST /invitations/:token': ['body'],
  'PUT /api/accounts/:accountId/projects/:projectId/tag-lists/:tagListId': ['body.update'],
  'POST /sso/start': ['body'],
  'POST /api/2/accounts/:accountRef/projects/:projectRef/annotations': ['body.savedView'],
  'PUT /api/2/accounts/:accountRef/projects/:projectRef/annotations/:annotationRef': ['body.savedView'],
  'POST /api/2/accounts/:accountRef/projects/:projectRef/share-links': ['body.savedView'],
  'PUT /api/2/accounts/:accountRef/projects/:projectRef/share-links/:shareLinkRef': ['body.savedView'],
};

/** Every object schema under `schema` that admits undeclared properties, by path. */
function openObjects(schema: unknown, path: string, out: string[] = []): string[] {
  if (Array.isArray(schema)) {
    schema.forEach((s) => openObjects(s, path, out));
    return out;
  }
  if (typeof schema !== 'object' || schema === null) return out;
  const s = schema as Record<string, unknown>;
  const isObject = s.type === 'object' || typeof s.properties === 'object';
  if (isObject && s.additionalProperties !== false) out.push(path);
  if (Array.isArray(s.allOf) && s.allOf.some((m) => typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'object')) {
    out.push(`${path} (allOf of objects)`);
  }
  for (const [k, v] of Object.entries(s)) {
    if (k === 'properties' || k === 'patternProperties') {
      for (const [p, sub] of Object.entries(v as Record<string, unknown>)) openObjects(sub, k === 'properties' ? `${path}.${p}` : `${path}.*`, out);
    } else if (typeof v === 'object' && v !== null && k !== 'required' && k !== 'enum' && k !== 'const' && k !== 'examples' && k !== 'default') {
      openObjects(v, path, out);
    }
  }
  return out;
}

let t: TestApp;
let w: World;
let P: any;
const routes: RouteOptions[] = [];

before(async () => {
  // Records every route as registered (the options object the app's own hooks finish).
  const channel = diagnostics.channel('fastify.initialization');
  const record = (msg: unknown) => (msg as { fastify: FastifyInstance }).fastify.addHook('onRoute', (r) => void routes.push(r));
  channel.subscribe(record);
  try {
    t = await testApp();
  } finally {
    channel.unsubscribe(record);
  }
  w = await projectWorld(t);
  P = await createProject(w.as.projectOwner!, { name: 'Fidelity P1' });
  await addMembers(w.as.projectOwner!, P.id, { users: [{ user: emailOf('manager'), role: w.roles.Manager }] });
});
after(() => t?.close());

describe('unknown fields are refused everywhere', () => {
  test('every registered body schema refuses undeclared properties, except the documented open ones', () => {
    const withBody = routes.filter((r) => r.schema?.body !== undefined);
    assert.ok(withBody.length > 40, `routes with a body: ${withBody.length}`);
    const offenders: string[] = [];
    for (const r of withBody) {
      for (const method of [r.method].flat()) {
        const key = `${method} ${r.url}`;
        const open = openObjects(r.schema!.body, 'body').filter((p) => !(OPEN_BODIES[key] ?? []).includes(p));
        offenders.push(...open.map((p) => `${key}: ${p}`));
      }
    }
    assert.deepEqual(offenders, [], 'body schemas admitting unknown properties');
  });

  test('closeSchema closes nested objects, keeps declared open ones, and refuses allOf over objects', () => {
    const closed = closeSchema({
      type: 'array',
      items: { type: 'object', properties: { a: { anyOf: [{ type: 'object', properties: {} }, { type: 'null' }] } } },
    }) as any;
    assert.equal(closed.items.additionalProperties, false);
    assert.equal(closed.items.properties.a.anyOf[0].additionalProperties, false);
    const open = { type: 'object', properties: {}, additionalProperties: true };
    assert.equal((closeSchema(open) as any).additionalProperties, true);
    const source = { type: 'object', properties: { x: { type: 'object', properties: {} } } };
    closeSchema(source);
    assert.equal((source.properties.x as any).additionalProperties, undefined, 'the source (maybe a response schema too) is left alone');
    assert.throws(() => closeSchema({ allOf: [{ type: 'object', properties: {} }, { type: 'object', properties: {} }] }), /allOf/);
  });

  test('API 2 POST …/tags/bulk with "creates" (a typo of create) answers 400 naming it, and writes nothing', async () => {
    const list = await w.as.manager!('POST', `${A2}/projects/${uuidOf(P.id)}/tag-lists`, { workzoneId: P.rootWorkzoneId, tagListType: '3d', name: 'Typos' });
    assert.equal(list.status, 201, JSON.stringify(list.body));
    const url = `${A2}/projects/${uuidOf(P.id)}/tag-lists/${uuidOf(list.body.id)}/tags`;
    const res = await w.as.manager!('POST', `${url}/bulk`, { creates: [{ data: { id: 'T-1', boundingBox: [0, 0, 0, 1, 1, 1] } }] });
    const p = assertProblem(res, 400, 'invalid-input');
    assert.match(p.detail, /creates/);
    assert.equal(p.errorValues.field, 'body.creates');
    const nested = await w.as.manager!('POST', `${url}/bulk`, { create: [{ data: { id: 'T-1', boundingBox: [0, 0, 0, 1, 1, 1], colour: 'red' } }] });
    assert.match(assertProblem(nested, 400, 'invalid-input').detail, /colour/);
    const tags = await w.as.manager!('GET', url);
    assert.deepEqual(tags.body, []);
  });

  test('API 2 bodies: create project, bulk tag-list update (id with the list fields) refuse unknown fields and accept known ones', async () => {
    const res = await w.as.projectOwner!('POST', `${A2}/projects`, { nam: 'x', name: 'Typo project', subscriptionId: SUB_A });
    assert.match(assertProblem(res, 400, 'invalid-input').detail, /nam\b/);
    const lists = `${A2}/projects/${uuidOf(P.id)}/tag-lists`;
    const l = await w.as.manager!('POST', lists, { workzoneId: P.rootWorkzoneId, tagListType: '3d', name: 'Bulk target' });
    const fields = { id: l.body.id, workzoneId: P.rootWorkzoneId, tagListType: '3d', name: 'Bulk renamed', description: 'd' };
    const ok = await w.as.manager!('POST', `${lists}/bulk-update`, [fields]);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body[0].description, 'd');
    assert.match(assertProblem(await w.as.manager!('POST', `${lists}/bulk-update`, [{ ...fields, descripton: 'x' }]), 400, 'invalid-input').detail, /descripton/);
  });

  test('API 1 bodies: tag-list create and update refuse unknown fields, in data and in tags, in the API 1 format', async () => {
    const lists = `${A1}/projects/${P.api1Id}/tag-lists`;
    const parentId = uuidOf(P.rootWorkzoneId);
    const created = await w.as.manager!('POST', lists, { parentId, data: { name: 'API 1 list', description: 'kept' } });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.data.description, 'kept', 'data takes its declared fields (name required, the rest optional)');
    for (const bad of [
      { parentId, data: { name: 'x' }, inserts: [] },
      { parentId, data: { name: 'x', colour: 'red' } },
      { parentId, data: { name: 'x' }, insert: [{ id: 'A', boundingBox: [0, 0, 0, 1, 1, 1], lable: 'x' }] },
    ]) {
      const e = assertApi1Error(await w.as.manager!('POST', lists, bad), 400, 'invalid-input');
      assert.match(e.message, /inserts|colour|lable/);
    }
    const up = await w.as.manager!('PUT', `${lists}/${created.body.id}`, { update: { nope: { boundingBox: [0, 0, 0, 1, 1, 1], extra: 1 } } });
    assert.match(assertApi1Error(up, 400, 'invalid-input').message, /extra/);
  });

  test('operator seed: roles and groups refuse unknown fields', async () => {
    for (const account of [
      { name: 'Proj', owner: emailOf('owner'), roles: [{ name: 'R', legacyPermissions: ['view3d'], permisions: [] }] },
      { name: 'Proj', owner: emailOf('owner'), groups: [{ name: 'G', members: [] }] },
    ]) {
      const res = await t.app.inject({ method: 'POST', url: '/_operator/seed', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` }, payload: { accounts: [account] } });
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json().detail, /permisions|members/);
    }
  });
});

describe('docs match behaviour (docs/tags.md)', () => {
  test('tagListType: API 2 requires it (vendor tagListCreate, tagListUpdate); a list API 1 creates is 3d and API 1 updates keep it', async () => {
    const lists2 = `${A2}/projects/${uuidOf(P.id)}/tag-lists`;
    const missing = await w.as.manager!('POST', lists2, { workzoneId: P.rootWorkzoneId, name: 'No type' });
    assert.match(assertProblem(missing, 400, 'invalid-input').detail, /tagListType/);
    const made = await w.as.manager!('POST', lists2, { workzoneId: P.rootWorkzoneId, tagListType: '2d', name: 'Typed' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const put = await w.as.manager!('PUT', `${lists2}/${uuidOf(made.body.id)}`, { workzoneId: P.rootWorkzoneId, name: 'Typed' });
    assert.match(assertProblem(put, 400, 'invalid-input').detail, /tagListType/);

    const lists1 = `${A1}/projects/${P.api1Id}/tag-lists`;
    const api1 = await w.as.manager!('POST', lists1, { parentId: uuidOf(P.rootWorkzoneId), data: { name: 'From API 1' } });
    assert.equal(api1.status, 200, JSON.stringify(api1.body));
    const seen = async () => (await w.as.manager!('GET', lists2)).body.find((l: any) => l.api1Id === api1.body.id);
    assert.equal((await seen()).tagListType, '3d');
    const typed = await w.as.manager!('POST', lists1, { parentId: uuidOf(P.rootWorkzoneId), data: { name: 'Was 2d' } });
    const id2 = (await w.as.manager!('GET', lists2)).body.find((l: any) => l.api1Id === typed.body.id).id;
    await w.as.manager!('PUT', `${lists2}/${uuidOf(id2)}`, { workzoneId: P.rootWorkzoneId, tagListType: '2d', name: 'Was 2d' });
    const up = await w.as.manager!('PUT', `${lists1}/${typed.body.id}`, { data: { description: 'changed' } });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    const after = (await w.as.manager!('GET', lists2)).body.find((l: any) => l.api1Id === typed.body.id);
    assert.equal(after.tagListType, '2d');
    assert.equal(after.description, 'changed');
  });
});
