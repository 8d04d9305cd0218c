// Annotations through API 2 (vendor getAnnotationsFromProject, createAnnotation,
// getAnnotationById, updateAnnotation, deleteAnnotation, createAnnotationComment):
// `workzone:annotations:read` on the zone to see (the listing keeps only those zones),
// `workzone:annotations:write` to change; a private note is its author's; assignees are
// members of the zone and are mailed; 3000 per project. Bodies checked against the vendor's
// schemas. PGlite by default; TEST_DATABASE_URL runs it on PostgreSQL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Sql } from '../../src/adapters/postgres/sql.ts';
import { testApp, type TestApp } from '../support/app.ts';
import {
  A2, ANNOTATOR_ID, SURVEYOR_ID, addMembers, assertProblem, createProject, createZone, emailOf, outbox, projectWorld, uuidOf, type World,
} from '../support/projects.ts';
import { describeErrors, loadVendorValidator, vendorSpecAvailable, withOurUrnNamespace, type VendorValidator } from '../support/vendor-schema.ts';

let t: TestApp;
let w: World;
let sql: Sql;
let P: any;
let Z: any;
let url = '';
let vendor: VendorValidator | null = null;
const ids: Record<string, string> = {};

before(async () => {
  t = await testApp({}, { wrapSql: (s) => (sql = s) });
  w = await projectWorld(t);
  P = await createProject(w.as.projectOwner!);
  Z = await createZone(w.as.projectOwner!, P.id, P.rootWorkzoneId, 'Level 2');
  await addMembers(w.as.projectOwner!, P.id, {
    users: [{ user: emailOf('viewer'), role: w.roles.Viewer }, { user: emailOf('manager'), role: w.roles.Manager }, { user: emailOf('alice'), role: SURVEYOR_ID }],
  });
  await addMembers(w.as.projectOwner!, P.id, { users: [{ user: emailOf('bob'), role: ANNOTATOR_ID }] }, [Z.id]);
  Object.assign(ids, w.ids);
  url = `${A2}/projects/${uuidOf(P.id)}/annotations`;
  if (vendorSpecAvailable()) vendor = loadVendorValidator({ patch: withOurUrnNamespace });
});
after(() => t.close());

const conforms = (operationId: string, status: number, body: unknown) => {
  if (!vendor) return;
  const errors = vendor.validate(operationId, status, body);
  assert.deepEqual(errors, [], `${operationId}: ${describeErrors(errors)}\n${JSON.stringify(body).slice(0, 600)}`);
};

const body = (workzoneId: string, extra: Record<string, unknown> = {}) => ({
  workzoneId, annotationType: 'Issue', title: 'Cracked beam', description: '<p>See <b>north</b> side &amp; the column</p>',
  position: { x: 1.5, y: -2, z: 3.25 }, normal: { x: 0, y: 0, z: 1 }, savedView: { type: 'viewpoint', camera: [0, 0, 10] }, priority: 5, dueDate: '2027-01-31',
  labels: ['structure'], modelElementGUIDs: ['3vB2YO$MX4xv5uCqZZG05x'], ...extra,
});

test('create (201), get, list, overwrite with PUT, comment, delete (204): the vendor shapes, numbered in the project', async () => {
  const created = await w.as.manager!('POST', url, body(Z.id));
  assert.equal(created.status, 201, JSON.stringify(created.body));
  conforms('createAnnotation', 201, created.body);
  const a = created.body;
  assert.match(a.id, /^urn:svc:annotation:/);
  assert.equal(a.workzoneId, Z.id);
  assert.equal(a.descriptionText, 'See north side & the column');
  assert.deepEqual(a.position, { x: 1.5, y: -2, z: 3.25 });
  assert.equal(a.comments, null);
  assert.equal(a.modificationInfo.createdBy, `urn:svc:user:${ids.manager}`);

  const second = (await w.as.manager!('POST', url, body(P.rootWorkzoneId, { title: 'Second' }))).body;
  assert.equal(second.number, a.number + 1);

  const comment = await w.as.manager!('POST', `${url}/${uuidOf(a.id)}/comments`, { description: 'Checked on site' });
  assert.equal(comment.status, 201, JSON.stringify(comment.body));
  conforms('createAnnotationComment', 201, comment.body);
  assert.equal(comment.body.attachedTo, a.id);

  const got = await w.as.viewer!('GET', `${url}/${a.id}?includeComments=true&includeAttachments=true`);
  assert.equal(got.status, 200);
  conforms('getAnnotationById', 200, got.body);
  assert.deepEqual(got.body.comments.map((c: any) => c.description), ['Checked on site']);
  assert.deepEqual(got.body.attachments, []);
  const list = await w.as.viewer!('GET', `${url}?includeComments=true`);
  conforms('getAnnotationsFromProject', 200, list.body);
  assert.deepEqual(list.body.map((x: any) => x.id), [a.id, second.id]);

  const put = await w.as.manager!('PUT', `${url}/${a.id}`, { annotationType: 'Resolved', title: 'Fixed beam', position: { x: 0, y: 0, z: 0 } });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  conforms('updateAnnotation', 200, put.body);
  // PUT overwrites: what was not sent is null (or empty).
  assert.equal(put.body.annotationType, 'Resolved');
  assert.equal(put.body.description, null);
  assert.equal(put.body.dueDate, null);
  assert.equal(put.body.priority, null);
  assert.deepEqual(put.body.labels, []);
  assert.equal(put.body.workzoneId, Z.id);
  assert.equal(put.body.number, a.number);

  assert.equal((await w.as.manager!('DELETE', `${url}/${a.id}`)).status, 204);
  assertProblem(await w.as.manager!('GET', `${url}/${a.id}`), 404, 'annotation-not-found');
  assert.equal((await w.as.manager!('DELETE', `${url}/${second.id}`)).status, 204);
});

test('the listing keeps only annotations on zones where the caller holds workzone:annotations:read', async () => {
  const onRoot = (await w.as.manager!('POST', url, body(P.rootWorkzoneId, { title: 'On root' }))).body;
  const onZone = (await w.as.manager!('POST', url, body(Z.id, { title: 'On level 2' }))).body;
  // bob (Annotator) is a member of Z only; alice (Surveyor: view3d + upload) reads no annotation.
  assert.deepEqual((await w.as.bob!('GET', url)).body.map((x: any) => x.id), [onZone.id]);
  assert.deepEqual((await w.as.alice!('GET', url)).body, []);
  assert.deepEqual((await w.as.viewer!('GET', url)).body.map((x: any) => x.id), [onRoot.id, onZone.id]);
  const refused = assertProblem(await w.as.alice!('GET', `${url}/${onZone.id}`), 403, 'view-annotation-forbidden');
  assert.deepEqual(refused.errorValues.requiredPermissions, ['workzone:annotations:read']);
  assertProblem(await w.as.bob!('GET', `${url}/${onRoot.id}`), 403, 'view-annotation-forbidden');
  assertProblem(await w.as.member!('GET', url), 403, 'not-member-of-project');
  assertProblem(await w.as.outsider!('GET', url), 404, 'account-not-found');
  assertProblem(await w.as.projectLister!('GET', url), 403, 'not-member-of-project');
  for (const a of [onRoot, onZone]) await w.as.manager!('DELETE', `${url}/${a.id}`);
});

test('each write is refused without workzone:annotations:write on the zone (403 naming it), and changes nothing', async () => {
  const a = (await w.as.manager!('POST', url, body(Z.id))).body;
  const cases = [
    [await w.as.viewer!('POST', url, body(Z.id)), 'create-annotation-forbidden'],
    [await w.as.bob!('POST', url, body(P.rootWorkzoneId)), 'create-annotation-forbidden'],
    [await w.as.viewer!('PUT', `${url}/${a.id}`, { annotationType: 'Note', title: 'x', position: { x: 0, y: 0, z: 0 } }), 'update-annotation-forbidden'],
    // Moving it needs the permission on the new zone too: bob writes on Z only.
    [await w.as.bob!('PUT', `${url}/${a.id}`, { workzoneId: P.rootWorkzoneId, annotationType: 'Note', title: 'x', position: { x: 0, y: 0, z: 0 } }), 'update-annotation-forbidden'],
    [await w.as.viewer!('DELETE', `${url}/${a.id}`), 'delete-annotation-forbidden'],
    [await w.as.viewer!('POST', `${url}/${a.id}/comments`, { description: 'no' }), 'create-annotation-comment-forbidden'],
  ] as const;
  for (const [res, code] of cases) assert.deepEqual(assertProblem(res, 403, code).errorValues.requiredPermissions, ['workzone:annotations:write'], code);
  const still = (await w.as.manager!('GET', `${url}/${a.id}?includeComments=true`)).body;
  assert.equal(still.title, 'Cracked beam');
  assert.deepEqual(still.comments, []);
  // bob may write on Z: a comment and a change there are his to make.
  assert.equal((await w.as.bob!('POST', `${url}/${a.id}/comments`, { description: 'mine' })).status, 201);
  await w.as.manager!('DELETE', `${url}/${a.id}`);
});

test('a private note is its author\'s only: nobody else lists, reads or changes it', async () => {
  const note = (await w.as.manager!('POST', url, body(Z.id, { annotationType: 'Private note' }))).body;
  assert.ok(!(await w.as.viewer!('GET', url)).body.some((x: any) => x.id === note.id));
  assertProblem(await w.as.viewer!('GET', `${url}/${note.id}`), 404, 'annotation-not-found');
  assertProblem(await w.as.projectOwner!('DELETE', `${url}/${note.id}`), 404, 'annotation-not-found');
  assert.ok((await w.as.manager!('GET', url)).body.some((x: any) => x.id === note.id));
  await w.as.manager!('DELETE', `${url}/${note.id}`);
});

test('assignees must be members of the zone; each newly assigned one is mailed once (create and PUT)', async () => {
  const assignments = async () => (await outbox(t)).filter((m) => m.subject.startsWith('Annotation #'));
  const before = (await assignments()).length;
  const a = await w.as.manager!('POST', url, body(Z.id, { assignedTo: [`urn:svc:user:${ids.bob}`] }));
  assert.equal(a.status, 201, JSON.stringify(a.body));
  assert.deepEqual(a.body.assignedTo, [`urn:svc:user:${ids.bob}`]);
  const mails = (await assignments()).filter((m) => m.to === emailOf('bob'));
  assert.equal((await assignments()).length, before + 1);
  assert.match(mails[0]!.subject, new RegExp(`Annotation #${a.body.number} assigned to you: Cracked beam`));
  assert.ok(mails[0]!.text.includes('Level 2'));

  // Keeping bob and adding the viewer (a member of the root, so of Z): only the viewer is mailed.
  const put = await w.as.manager!('PUT', `${url}/${a.body.id}`, {
    annotationType: 'Issue', title: 'Cracked beam', position: { x: 0, y: 0, z: 0 }, assignedTo: [ids.bob, `urn:svc:user:${ids.viewer}`],
  });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  assert.equal((await assignments()).length, before + 2);
  assert.equal((await assignments())[0]!.to, emailOf('viewer'));

  // carol is no member of the project; bob is none of the root zone: 400, nothing written, nobody mailed.
  assertProblem(await w.as.manager!('POST', url, body(Z.id, { assignedTo: [ids.carol] })), 400, 'invalid-input');
  assertProblem(await w.as.manager!('POST', url, body(P.rootWorkzoneId, { assignedTo: [ids.bob] })), 400, 'invalid-input');
  assertProblem(await w.as.manager!('POST', url, body(Z.id, { assignedTo: ['urn:svc:user:not-a-uuid'] })), 400, 'invalid-user-urn');
  assert.equal((await assignments()).length, before + 2);
  assert.deepEqual((await w.as.manager!('GET', url)).body.map((x: any) => x.id), [a.body.id]);
  await w.as.manager!('DELETE', `${url}/${a.body.id}`);
});

test('bad input is a 400 naming the problem; unknown references 404; nothing is written', async () => {
  const p = (e: Record<string, unknown>) => w.as.manager!('POST', url, body(Z.id, e));
  const count = (await w.as.manager!('GET', url)).body.length;
  assertProblem(await p({ title: '' }), 400, 'invalid-input');
  assertProblem(await p({ title: 'x'.repeat(256) }), 400, 'invalid-input');
  assertProblem(await p({ title: '   ' }), 400, 'invalid-input');
  assertProblem(await p({ annotationType: 'Todo' }), 400, 'invalid-input');
  assertProblem(await p({ priority: 3 }), 400, 'invalid-input');
  assertProblem(await p({ dueDate: '2027-02-30' }), 400, 'invalid-input');
  assertProblem(await p({ position: { x: 1, y: 2 } }), 400, 'invalid-input');
  assertProblem(await p({ labels: Array.from({ length: 51 }, (_, i) => `l${i}`) }), 400, 'invalid-input');
  assertProblem(await p({ savedView: { type: 'x', blob: 'y'.repeat(70_000) } }), 400, 'invalid-input');
  assertProblem(await p({ attachments: ['some-blob'] }), 400, 'invalid-input');
  assertProblem(await p({ unknownField: 1 }), 400, 'invalid-input');
  assertProblem(await p({ workzoneId: '00000000-0000-4000-8000-000000000000' }), 404, 'workzone-not-found');
  assertProblem(await p({ workzoneId: 'urn:svc:workzone:nope' }), 400, 'invalid-workzone-urn');
  assertProblem(await w.as.manager!('GET', `${url}/urn:svc:annotation:nope`), 400, 'invalid-annotation-urn');
  assertProblem(await w.as.manager!('GET', `${url}/00000000-0000-4000-8000-000000000000`), 404, 'annotation-not-found');
  assertProblem(await w.as.manager!('POST', `${url}/00000000-0000-4000-8000-000000000000/comments`, { description: 'x' }), 404, 'annotation-not-found');
  assert.equal((await w.as.manager!('GET', url)).body.length, count);
  const a = (await p({})).body;
  assertProblem(await w.as.manager!('POST', `${url}/${a.id}/comments`, { description: '' }), 400, 'invalid-input');
  assertProblem(await w.as.manager!('POST', `${url}/${a.id}/comments`, { description: 'x'.repeat(20_001) }), 400, 'invalid-input');
  assertProblem(await w.as.manager!('POST', `${url}/${a.id}/comments`, { description: 'x', attachments: ['b'] }), 400, 'invalid-input');
  await w.as.manager!('DELETE', `${url}/${a.id}`);
});

test('the vendor\'s limit: the 3000th annotation of a project is created, the 3001st is 400 project-max-annotations', async () => {
  const Q = await createProject(w.as.projectOwner!);
  const qUrl = `${A2}/projects/${uuidOf(Q.id)}/annotations`;
  // 2999 annotations written directly (the HTTP path is checked by the two calls after).
  await sql.query(
    `INSERT INTO annotations (id, project_id, workzone_id, number, annotation_type, title, position_x, position_y, position_z, created_at, updated_at)
     SELECT gen_random_uuid(), $1, $2, n, 'Note', 'bulk', 0, 0, 0, now(), now() FROM generate_series(1, 2999) AS n`,
    [uuidOf(Q.id), uuidOf(Q.rootWorkzoneId)],
  );
  await sql.query('INSERT INTO annotation_numbers (project_id, last_number) VALUES ($1, 2999)', [uuidOf(Q.id)]);
  const last = await w.as.projectOwner!('POST', qUrl, body(Q.rootWorkzoneId));
  assert.equal(last.status, 201, JSON.stringify(last.body));
  assert.equal(last.body.number, 3000);
  const refused = assertProblem(await w.as.projectOwner!('POST', qUrl, body(Q.rootWorkzoneId)), 400, 'project-max-annotations');
  assert.equal(refused.errorValues.maxAnnotations, 3000);
  // A deletion frees a place; numbers are not reused.
  assert.equal((await w.as.projectOwner!('DELETE', `${qUrl}/${last.body.id}`)).status, 204);
  assert.equal((await w.as.projectOwner!('POST', qUrl, body(Q.rootWorkzoneId))).body.number, 3001);
});

test('each change publishes its typed domain event in its transaction', async () => {
  const events = async () => (await sql.query<{ type: string; data: any }>(
    `SELECT type, data FROM domain_events WHERE type LIKE 'annotation.%' AND data->>'projectId' = $1 ORDER BY seq`, [uuidOf(P.id)],
  ));
  const n = (await events()).length;
  const a = (await w.as.manager!('POST', url, body(Z.id, { assignedTo: [ids.bob] }))).body;
  await w.as.manager!('POST', `${url}/${a.id}/comments`, { description: 'c' });
  await w.as.manager!('PUT', `${url}/${a.id}`, { annotationType: 'Note', title: 't', position: { x: 0, y: 0, z: 0 } });
  await w.as.manager!('DELETE', `${url}/${a.id}`);
  const got = (await events()).slice(n);
  assert.deepEqual(got.map((e) => e.type), ['annotation.created', 'annotation.assigned', 'annotation.commented', 'annotation.updated', 'annotation.deleted']);
  assert.equal(got[1]!.data.userId, ids.bob);
  assert.ok(got.every((e) => e.data.annotationId === uuidOf(a.id) && e.data.workzoneId === uuidOf(Z.id)));
});
