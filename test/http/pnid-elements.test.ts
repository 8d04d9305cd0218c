// P&ID elements (vendor addPnIdElementsInTagList): each instrument and pipe becomes one tag
// (a konva shape) on an existing page of a 2d tag list, all or nothing; `workzone:tags:write`;
// a page not on the list, a page without elements, a 3d list are refused and add nothing.
// PGlite by default; TEST_DATABASE_URL runs it on PostgreSQL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, TAGGER_ID, addMembers, assertProblem, createProject, emailOf, projectWorld, uuidOf, type World } from '../support/projects.ts';
import { describeErrors, loadVendorValidator, vendorSpecAvailable, withOurUrnNamespace, type VendorValidator } from '../support/vendor-schema.ts';

let t: TestApp;
let w: World;
let P: any;
let L: any;
let vendor: VendorValidator | null = null;
const lists = () => `${A2}/projects/${uuidOf(P.id)}/tag-lists`;
const addUrl = (list: any) => `${lists()}/${uuidOf(list.id)}/pnid-elements/bulk-add`;

const conforms = (operationId: string, status: number, body: unknown) => {
  if (!vendor) return;
  const errors = vendor.validate(operationId, status, body);
  assert.deepEqual(errors, [], `${operationId}: ${describeErrors(errors)}\n${JSON.stringify(body).slice(0, 600)}`);
};

const attachments = [{ id: 'sheet-1', name: 'P&ID sheet 1', pages: [{ id: 'page-a', index: 1 }, { id: 'page-b', index: 2 }] }];
const valve = { name: 'instrument_1', class: 'valve', confidence: 0.91, location: [[10, 20], [30, 40]] };
const pipe = { name: 'pipe_1', segments: [[0, 0], [5, 5], [10, 0]] };

async function newList(tagListType = '2d'): Promise<any> {
  const res = await w.as.manager!('POST', lists(), { workzoneId: P.rootWorkzoneId, tagListType, name: `P&ID ${Math.random().toString(36).slice(2, 7)}`, attachments });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}
const tagsOf = async (list: any) => (await w.as.manager!('GET', `${lists()}/${uuidOf(list.id)}/tags`)).body as any[];

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
  P = await createProject(w.as.projectOwner!);
  await addMembers(w.as.projectOwner!, P.id, {
    users: [{ user: emailOf('manager'), role: w.roles.Manager }, { user: emailOf('viewer'), role: w.roles.Viewer }, { user: emailOf('carol'), role: TAGGER_ID }],
  });
  if (vendorSpecAvailable()) vendor = loadVendorValidator({ patch: withOurUrnNamespace });
  L = await newList();
});
after(() => t.close());

test('each instrument and pipe becomes one tag on its page (201, the updated list): a closed rectangle, a polyline', async () => {
  const res = await w.as.manager!('POST', addUrl(L), { pages: [{ attachmentId: 'sheet-1', index: 2, instruments: [valve], pipes: [pipe] }] });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  conforms('addPnIdElementsInTagList', 201, res.body);
  assert.equal(res.body.id, L.id);
  assert.ok(res.body.tagsVersion > L.tagsVersion);
  const tags = await tagsOf(L);
  conforms('getTagsOnList', 200, tags);
  const [instrument, line] = tags.map((x) => x.data);
  assert.equal(instrument.name, 'instrument_1');
  assert.equal(instrument.pageId, 'page-b');
  assert.equal(instrument.class, 'valve');
  assert.equal(instrument.confidence, 0.91);
  assert.equal(instrument.model.type, 'konva');
  assert.deepEqual(JSON.parse(instrument.model.data), { className: 'Line', attrs: { points: [10, 20, 30, 20, 30, 40, 10, 40], closed: true } });
  assert.equal(line.class, 'pipe');
  assert.deepEqual(JSON.parse(line.model.data).attrs, { points: [0, 0, 5, 5, 10, 0], closed: false });
  // Sending the same elements again adds them again (the vendor: never changed or removed).
  const again = await w.as.carol!('POST', addUrl(L), { pages: [{ attachmentId: 'sheet-1', index: 2, instruments: [valve], pipes: [pipe] }] });
  assert.equal(again.status, 201, JSON.stringify(again.body));
  assert.equal((await tagsOf(L)).length, 4);
});

test('a name longer than a tag name (50) is cut there and kept whole in the description', async () => {
  const list = await newList();
  const name = 'N'.repeat(120);
  assert.equal((await w.as.manager!('POST', addUrl(list), { pages: [{ attachmentId: 'sheet-1', index: 1, pipes: [{ ...pipe, name }] }] })).status, 201);
  const [tag] = await tagsOf(list);
  assert.equal(tag.data.name, name.slice(0, 50));
  assert.equal(tag.data.description, name);
});

test('it needs workzone:tags:write: a Viewer member is refused, a non-member does not reach the project', async () => {
  const list = await newList();
  const body = { pages: [{ attachmentId: 'sheet-1', index: 1, instruments: [valve] }] };
  const viewer = assertProblem(await w.as.viewer!('POST', addUrl(list), body), 403, 'update-tag-list-forbidden');
  assert.ok(viewer.errorValues.requiredPermissions.includes('workzone:tags:write'));
  assertProblem(await w.as.member!('POST', addUrl(list), body), 403, 'not-member-of-project');
  assert.equal((await t.app.inject({ method: 'POST', url: addUrl(list), payload: body })).statusCode, 401);
  assert.deepEqual(await tagsOf(list), []);
});

test('documented errors, none of which adds a tag: a page not on the list, a page without elements, a 3d list, bad shapes, an unknown list', async () => {
  const list = await newList();
  const refused = async (body: unknown, status = 400, code = 'invalid-input', target = list) => {
    const res = await w.as.manager!('POST', addUrl(target), body);
    return assertProblem(res, status, code);
  };
  const missing = await refused({ pages: [{ attachmentId: 'sheet-1', index: 1, instruments: [valve] }, { attachmentId: 'sheet-1', index: 3, pipes: [pipe] }] });
  assert.deepEqual([missing.errorValues.attachmentId, missing.errorValues.index], ['sheet-1', 3]);
  await refused({ pages: [{ attachmentId: 'sheet-9', index: 1, pipes: [pipe] }] });
  await refused({ pages: [{ attachmentId: 'sheet-1', index: 1, instruments: [], pipes: null }] });
  await refused({ pages: [{ attachmentId: 'sheet-1', index: 1, instruments: [valve] }] }, 400, 'invalid-input', await newList('3d'));
  await refused({ pages: [{ attachmentId: 'sheet-1', index: 1, instruments: [{ ...valve, location: [[30, 40], [10, 20]] }] }] });
  await refused({ pages: [{ attachmentId: 'sheet-1', index: 1, instruments: [{ ...valve, confidence: 1.5 }] }] });
  await refused({ pages: [{ attachmentId: 'sheet-1', index: 0, instruments: [valve] }] });
  await refused({ pages: [{ attachmentId: 'sheet-1', index: 1, pipes: [{ name: 'p', segments: [[0, 0]] }] }] });
  await refused({ pages: [] });
  await refused({ pages: [{ attachmentId: 'sheet-1', index: 1, instruments: [valve] }] }, 404, 'tag-list-not-found', { id: 'urn:svc:tag-list:e9999999-9999-4999-8999-999999999999' });
  assert.deepEqual(await tagsOf(list), []);
  assert.equal((await w.as.manager!('GET', `${lists()}/${uuidOf(list.id)}`)).body.tagsVersion, list.tagsVersion);
});
