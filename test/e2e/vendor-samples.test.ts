// The vendor's own TypeScript samples (x-codeSamples, fetch) of the operations under
// /projects that we serve (projects, work zones, members, files, blobs, crops, tag lists, integrations,
// tags), extracted at test time from ../shared/reference/vendor-api2-openapi.json (never
// copied here), with the host, the token and the ids filled in, run against the app
// listening on an ephemeral loopback port. Each must succeed (2xx), or be one of
// REFUSED_ON_PURPOSE: a sample whose own body is wrong, answered with a 4xx problem whose
// `detail` names the mistake (docs/decisions.md "Vendor samples").
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, ACCOUNT_ID, GROUP_ID, SUB_A, createProject, createZone, emailOf, projectWorld, uuidOf, type World } from '../support/projects.ts';
import { bytes, origin, upload } from '../support/files.ts';
import { startFakeIntegrations, type FakeIntegrations } from '../support/fake-integrations.ts';
import { operationShape, servedShapes, vendorSpecAvailable, VENDOR_OPENAPI } from '../support/vendor-schema.ts';

const skip = vendorSpecAvailable() ? false : `the vendor file is not at ${VENDOR_OPENAPI}`;

/** Samples whose own request is wrong: the status and what the problem's detail must name. */
const PLACEHOLDER = { status: 400, why: 'the sample leaves a "..." placeholder in its body, and the answer names it' };
const REFUSED_ON_PURPOSE: Record<string, { status: number; detail: RegExp; why: string }> = {
  createProject: { status: 400, detail: /urn:cintoo:subscription/, why: 'the sample spells a URN in the vendor\'s namespace; ours is svc (CONTRACT §2)' },
  updateProject: { status: 400, detail: /subscriptionId/, why: 'PUT overwrites: the sample leaves out the required subscriptionId and ownerId' },
  signProjectCoverURL: { status: 400, detail: /body\.extension/, why: 'the sample\'s extension is not png, jpg or jpeg (CONTRACT §6)' },
  updateProjectCover: { status: 400, detail: /No cover upload was signed/, why: 'the sample registers a cover that was never signed' },
  addProjectMembers: { ...PLACEHOLDER, detail: /urn:cintoo:workzone:\.\.\./ },
  removeMembersFromProject: { ...PLACEHOLDER, detail: /urn:cintoo:user:\.\.\./ },
  updateFileName: { status: 400, detail: /body\.name/, why: 'the sample sends no name' },
  UpdateBulkFilesTransformation: { status: 400, detail: /body\.0\.position/, why: 'the sample says position; the vendor schema (and we) say translation' },
  registerFiles: { status: 400, detail: /No signed upload matches/, why: 'the sample registers without the blobName the sign call answered (CONTRACT §7)' },
  createTagList: { ...PLACEHOLDER, detail: /workzone reference: \.\.\./ },
  bulkUpdateTagLists: { ...PLACEHOLDER, detail: /tag-list reference: \.\.\./ },
  bulkDeleteTagLists: { ...PLACEHOLDER, detail: /tag-list reference: \.\.\./ },
  updateTagList: { ...PLACEHOLDER, detail: /workzone reference: \.\.\./ },
  tagListAiDetection: { ...PLACEHOLDER, detail: /file reference: \.\.\./ },
  createShareLink: { status: 400, detail: /body\.savedView/, why: 'the sample sends savedView {} without the type the vendor\'s SavedViewData requires' },
  updateShareLink: { status: 400, detail: /body\.savedView/, why: 'the sample sends savedView {} without the type the vendor\'s SavedViewData requires' },
  bulkTags: { status: 404, detail: /No route POST .*\/tag-lists\/[0-9a-f-]+$/, why: 'the sample\'s URL stops at the tag list (no /tags/bulk)' },
  createAnnotation: { status: 400, detail: /body\.annotationType/, why: 'the sample says type and a "1,2,3" position; the vendor schema (and we) say annotationType and a point object' },
  updateAnnotation: { status: 400, detail: /body\.annotationType/, why: 'the sample says type; the vendor schema (and we) say annotationType' },
  addPnIdElementsInTagList: { ...PLACEHOLDER, detail: /no page 1 in attachment \.\.\./ },
  postExportToMesh: { status: 400, detail: /body\.resolution/, why: 'the sample\'s resolution (0.01) is below the vendor\'s own minimum (0.02)' },
  bulkMoveTags: { status: 404, detail: /No route POST .*\/tag-lists\/[0-9a-f-]+$/, why: 'the sample\'s URL stops at the tag list (no /tags/bulk-move)' },
};

interface Sample { operationId: string; method: string; path: string; source: string }

let t: TestApp;
let w: World;
/** Autodesk for the integration samples (a real HTTP server on loopback; docs/integrations.md). */
let fake: FakeIntegrations;
let host: string;
let token: string;
const samples: Sample[] = [];

before(async () => {
  if (skip) return;
  const doc = JSON.parse(fs.readFileSync(VENDOR_OPENAPI, 'utf8'));
  fake = await startFakeIntegrations();
  t = await testApp({ AUTODESK_API_URL: fake.url, AUTODESK_CLIENT_ID: fake.autodesk.clientId, AUTODESK_CLIENT_SECRET: fake.autodesk.clientSecret });
  w = await projectWorld(t);
  token = (await t.tokens(emailOf('projectOwner'))).access_token;
  host = new URL(await origin(t)).host;
  const served = servedShapes((await t.app.inject({ method: 'GET', url: '/api/2/openapi.json' })).json());
  for (const [p, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    if (!p.includes('/projects')) continue;
    for (const [method, op] of Object.entries(item)) {
      const code = (op?.['x-codeSamples'] ?? []).find((c: any) => ['TypeScript', 'JavaScript'].includes(c.lang));
      if (code && served.has(operationShape(method, p))) samples.push({ operationId: op.operationId, method, path: p, source: code.source });
    }
  }
});
after(async () => {
  await t?.close();
  await fake?.close();
});

/** Fresh objects for one sample (a sample may delete what it names). */
async function idsFor(): Promise<Record<string, string>> {
  const call = w.as.projectOwner!;
  const p = await createProject(call, { name: `Sample ${Math.random().toString(36).slice(2, 8)}` });
  const z = await createZone(call, p.id, p.rootWorkzoneId);
  const [model] = await upload(t, call, p.id, z.id, [{ name: 'Model', extension: 'ifc', content: bytes(20, 5) }]);
  const lists = `${A2}/projects/${uuidOf(p.id)}/tag-lists`;
  const list = async (name: string) => (await call('POST', lists, { workzoneId: z.id, tagListType: '3d', name })).body;
  const source = await list('Source');
  const target = await list('Target');
  const crop = (await call('POST', `${A2}/projects/${uuidOf(p.id)}/crops`, {
    workzoneId: z.id, name: 'C', crop: '[[1]]', actualCrop: '[[1]]', rotation: '0', cameraType: 'overview', cameraState: '{}', scan: 's', layers: null, oview: 1, settings: null,
  })).body;
  const annotation = (await call('POST', `${A2}/projects/${uuidOf(p.id)}/annotations`, {
    workzoneId: z.id, annotationType: 'Note', title: 'Sample', position: { x: 1, y: 2, z: 3 }, savedView: { type: 'viewpoint' },
  })).body;
  const shareLink = (await call('POST', `${A2}/projects/${uuidOf(p.id)}/share-links`, {
    name: 'Sample', workzoneId: z.id, membershipRequired: false, shareOptions: { workzones: false, notes: true, issues: true, measurements: true, crops: false, tags: false },
  })).body;
  await call('POST', `${A2}/projects/${uuidOf(p.id)}/members`, { members: { users: [{ user: emailOf('alice'), role: w.roles.Viewer }], groups: [{ group: GROUP_ID, role: w.roles.Viewer }] } });
  // bob is a member of the child zone only: the samples removing a user name him
  await call('POST', `${A2}/projects/${uuidOf(p.id)}/members`, { members: { users: [{ user: emailOf('bob'), role: w.roles.Viewer }] }, workzones: [z.id] });
  return {
    token, host, accountUUID: ACCOUNT_ID, accountId: ACCOUNT_ID, projectUUID: uuidOf(p.id), projectId: uuidOf(p.id),
    workzoneId: uuidOf(z.id), workzoneUUID: uuidOf(z.id), listUUID: uuidOf(source.id), sourceTagListUUID: uuidOf(source.id),
    targetTagListUUID: uuidOf(target.id), annotationId: uuidOf(annotation.id), annotationUUID: uuidOf(annotation.id), cropUUID: uuidOf(crop.id), cropId: uuidOf(crop.id), fileUUID: uuidOf(model!.id), shareLinkId: uuidOf(shareLink.id),
    blobId: model!.blobName, userId: w.ids.bob!, userRef: w.ids.bob!, groupUUID: GROUP_ID, subscriptionUUID: SUB_A, subscriptionId: SUB_A,
  };
}

/** The sample with its `const x = "..."` placeholders filled, over plain HTTP to our host. */
function fill(s: Sample, ids: Record<string, string>): string {
  return s.source
    .replace(/const host = "[^"]*";/, `const host = ${JSON.stringify(ids.host)};`)
    .replace(/const (\w+) = "\.\.\.";/g, (whole, name: string) => (name in ids ? `const ${name} = ${JSON.stringify(ids[name])};` : whole))
    .replaceAll('https://${host}', 'http://${host}')
    .replaceAll('[...]', '["..."]')
    // `import { a } from "m"` reads from the modules the test lends (a sample must not write to disk).
    .replace(/^\s*import \{([^}]+)\} from "([^"]+)";/gm, (_, names: string, mod: string) => `const {${names}} = modules[${JSON.stringify(mod)}];`);
}

/** What a sample may import: nothing that touches the disk. */
const MODULES = { 'node:fs/promises': { writeFile: async () => undefined } };

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;

/** Runs the sample's code with a fetch that records the answers and a silent console. */
async function run(code: string): Promise<{ status: number; body: any }[]> {
  const answers: { status: number; body: any }[] = [];
  const recording = async (input: string, init?: RequestInit) => {
    // Redirects are answers (the 302 of a blob names PUBLIC_URL, where the test app does not listen).
    const res = await fetch(input, { ...init, redirect: 'manual' });
    const text = await res.clone().text();
    let body: unknown = text;
    try { body = text ? JSON.parse(text) : null; } catch { /* a non-JSON body (a redirect) stays text */ }
    answers.push({ status: res.status, body });
    return res;
  };
  const quiet = { log: () => undefined, error: () => undefined };
  try {
    await new AsyncFunction('fetch', 'console', 'modules', code)(recording, quiet, MODULES);
  } catch (e) {
    // A sample reading a body it does not get (204, 302) fails after its call: the answer is what counts.
    if (!answers.length) throw e;
  }
  return answers;
}

describe('the vendor TypeScript samples run against the service', { skip }, () => {
  test('tag lists, files and projects samples succeed, or are refused with a 4xx naming the sample\'s mistake', async () => {
    assert.ok(samples.some((s) => s.path.includes('/tag-lists')) && samples.some((s) => s.path.includes('/files'))
      && samples.some((s) => s.operationId === 'getProject'), `found ${samples.map((s) => s.operationId).join(', ')}`);
    const failures: string[] = [];
    for (const s of samples) {
      const ids = await idsFor();
      // restore needs a deleted project
      if (s.operationId === 'restoreProject') assert.equal((await w.as.projectOwner!('DELETE', `${A2}/projects/${ids.projectUUID}`)).status, 204);
      // reading, overwriting or deleting a project's integration needs one configured
      const configured = /^(?:get|update|delete)(Konekt|Autodesk)ProjectIntegration$/.exec(s.operationId)?.[1];
      if (configured) {
        const body = configured === 'Konekt' ? { hubId: 'hub', konektProjectId: 1, options: { allowInviteUsers: false } } : { autodeskHubId: 'hub', autodeskProjectId: 'p' };
        assert.equal((await w.as.projectOwner!('POST', `${A2}/projects/${ids.projectUUID}/integrations/${configured.toLowerCase()}`, body)).status, 201);
      }
      const answers = await run(fill(s, ids));
      const last = answers.at(-1);
      const refused = REFUSED_ON_PURPOSE[s.operationId];
      if (!last) failures.push(`${s.operationId}: made no request`);
      else if (refused) {
        if (last.status !== refused.status || !refused.detail.test(String(last.body?.detail))) {
          failures.push(`${s.operationId}: expected ${refused.status} naming ${refused.detail}, got ${last.status} ${JSON.stringify(last.body)}`);
        }
      } else if (last.status < 200 || last.status >= 400) failures.push(`${s.operationId}: ${last.status} ${JSON.stringify(last.body).slice(0, 300)}`);
    }
    assert.deepEqual(failures, []);
    for (const id of Object.keys(REFUSED_ON_PURPOSE)) assert.ok(samples.some((s) => s.operationId === id), `${id} is no longer a sample`);
  });

  test('isAttachment (sent by the vendor\'s upload samples): false is accepted, true is refused naming the field', async () => {
    const p = await createProject(w.as.projectOwner!, { name: 'Attachments' });
    const url = `${A2}/projects/${uuidOf(p.id)}/workzones/${uuidOf(p.rootWorkzoneId)}/bulk-files`;
    const item = { name: 'Doc', extension: 'pdf', size: 10, md5: 'da04845eaedb7db7f5b6f32c4076821f' };
    const ok = await w.as.projectOwner!('POST', url, [{ ...item, isAttachment: false }]);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal('isAttachment' in ok.body.files[0], false);
    const refused = await w.as.projectOwner!('POST', url, [{ ...item, isAttachment: true }]);
    assert.equal(refused.status, 400);
    assert.match(refused.body.detail, /isAttachment/);
  });
});
