// Connect import/export jobs end to end, against a real started server over HTTP: scans
// uploaded with the three-step flow (sign, PUT to the signed URL with the three headers,
// register), an export job started through API 1, fetched at /connect/{slug}, and both
// scans downloaded through its URLs byte for byte; an import job taking the same flow
// into its work zone; and who may start and see jobs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { callsAs, startOAuthServer, type OAuthServer } from '../support/oauth-client.ts';
import { ACCOUNT_ID, PROJECT_SEED, SUB_A, emailOf } from '../support/projects.ts';

let server: OAuthServer;
const A2 = `/api/2/accounts/${ACCOUNT_ID}`;
const A1 = `/api/accounts/${ACCOUNT_ID}`;
const uuidOf = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);

before(async () => {
  server = await startOAuthServer();
  api = callsAs(server, emailOf).api;
  await server.seed(PROJECT_SEED);
});
after(async () => {
  await server?.stop();
});

let api: ReturnType<typeof callsAs>['api'];

const md5 = (b: Buffer) => crypto.createHash('md5').update(b);

/** The spec's step 2: PUT the bytes to the signed URL with the three headers. */
async function put(url: string, bytes: Buffer): Promise<void> {
  const res = await fetch(url, {
    method: 'PUT',
    headers: {
      'content-md5': md5(bytes).digest('base64'),
      'cache-control': 'max-age=2592000',
      'x-ms-blob-type': 'BlockBlob',
      'content-length': String(bytes.length),
    },
    body: new Uint8Array(bytes),
  });
  assert.ok(res.status >= 200 && res.status < 300, `PUT ${res.status} ${await res.text()}`);
}

const item = (name: string, bytes: Buffer) => ({ name, extension: 'e57', size: bytes.length, md5: md5(bytes).digest('hex') });

/** Uploads scans into a work zone through API 2's bulk-files; answers the registered files. */
async function uploadScans(projectId: string, zoneId: string, scans: Record<string, Buffer>): Promise<any[]> {
  const path = `${A2}/projects/${projectId}/workzones/${zoneId}/bulk-files`;
  const items = Object.entries(scans).map(([n, b]) => item(n, b));
  const signed = await api('projectOwner', 'POST', path, items);
  assert.equal(signed.status, 200, JSON.stringify(signed.body));
  for (const f of signed.body.files) await put(f.url, scans[f.name]!);
  const reg = await api('projectOwner', 'PUT', path, signed.body.files.map((f: any) => ({ ...item(f.name, scans[f.name]!), blobName: f.blobName })));
  assert.equal(reg.status, 200, JSON.stringify(reg.body));
  return reg.body;
}

async function project(): Promise<{ id: string; root: string; zone: string }> {
  const p = await api('projectOwner', 'POST', `${A2}/projects`, { name: `Connect ${crypto.randomUUID().slice(0, 6)}`, subscriptionId: SUB_A });
  assert.equal(p.status, 201, JSON.stringify(p.body));
  const id = uuidOf(p.body.id);
  const root = uuidOf(p.body.rootWorkzoneId);
  const z = await api('projectOwner', 'POST', `${A2}/projects/${id}/workzones`, { name: 'Level 1', parentWorkzoneId: p.body.rootWorkzoneId });
  assert.equal(z.status, 201, JSON.stringify(z.body));
  return { id, root, zone: uuidOf(z.body.id) };
}

test('connect export: two uploaded scans are listed by the job and download byte for byte through its URLs', async () => {
  const p = await project();
  const scans = { 'north.e57': crypto.randomBytes(300_000), 'south.e57': crypto.randomBytes(123_457) };
  const registered = await uploadScans(p.id, p.zone, scans);
  assert.equal(registered.length, 2);

  const start = await api('projectOwner', 'POST', `${A1}/projects/${p.id}/workzones/${p.root}/connect/export`, {
    scanIds: registered.map((f) => uuidOf(f.id)),
  });
  assert.equal(start.status, 200, JSON.stringify(start.body));
  assert.match(start.body.slug, /^[A-Za-z0-9_-]{22}$/);
  assert.equal(start.body.url, `${server.url}/connect/${start.body.slug}`);

  const job = await api('projectOwner', 'GET', `/connect/${start.body.slug}`);
  assert.equal(job.status, 200, JSON.stringify(job.body));
  assert.equal(job.body.kind, 'export');
  assert.equal(job.body.state, 'ready');
  assert.deepEqual(job.body.files.map((f: any) => f.name).sort(), ['north.e57', 'south.e57']);
  for (const f of job.body.files) {
    const res = await fetch(f.url); // a signed URL: no bearer token
    assert.equal(res.status, 200);
    const got = Buffer.from(await res.arrayBuffer());
    assert.equal(f.size, scans[f.name as keyof typeof scans].length);
    assert.ok(got.equals(scans[f.name as keyof typeof scans]), `${f.name}: downloaded bytes differ`);
  }
});

test('connect export by work zone: every scan of the zone subtree, none from elsewhere; neither given: the path zone subtree', async () => {
  const p = await project();
  await uploadScans(p.id, p.zone, { 'in-zone.e57': crypto.randomBytes(1000) });
  await uploadScans(p.id, p.root, { 'at-root.e57': crypto.randomBytes(1000) });
  const byZone = await api('projectOwner', 'POST', `${A1}/projects/${p.id}/workzones/${p.root}/connect/export`, { workzoneIds: [p.zone] });
  assert.equal(byZone.status, 200, JSON.stringify(byZone.body));
  const job = await api('projectOwner', 'GET', `/connect/${byZone.body.slug}`);
  assert.deepEqual(job.body.files.map((f: any) => f.name), ['in-zone.e57']);
  const all = await api('projectOwner', 'POST', `${A1}/projects/${p.id}/workzones/${p.root}/connect/export`, {});
  const whole = await api('projectOwner', 'GET', `/connect/${all.body.slug}`);
  assert.deepEqual(whole.body.files.map((f: any) => f.name).sort(), ['at-root.e57', 'in-zone.e57']);
});

test('an export viewed by a member of a zone lists only the scans that member may read (no download URL outside their zones)', async () => {
  const p = await project();
  await uploadScans(p.id, p.zone, { 'in-zone.e57': crypto.randomBytes(1000) });
  await uploadScans(p.id, p.root, { 'at-root.e57': crypto.randomBytes(1000) });
  const roles = await api('owner', 'GET', `${A2}/roles`);
  const manager = uuidOf(roles.body.find((r: any) => r.name === 'Manager').id);
  const add = await api('projectOwner', 'POST', `${A2}/projects/${p.id}/members`, { workzones: [p.zone], members: { users: [{ user: emailOf('manager'), role: manager }] } });
  assert.equal(add.status, 204, JSON.stringify(add.body));
  // Started at the zone by the owner, with the root's subtree: both scans.
  const start = await api('projectOwner', 'POST', `${A1}/projects/${p.id}/workzones/${p.zone}/connect/export`, { workzoneIds: [p.root] });
  assert.equal(start.status, 200, JSON.stringify(start.body));
  const owner = await api('projectOwner', 'GET', `/connect/${start.body.slug}`);
  assert.deepEqual(owner.body.files.map((f: any) => f.name).sort(), ['at-root.e57', 'in-zone.e57']);
  const member = await api('manager', 'GET', `/connect/${start.body.slug}`);
  assert.equal(member.status, 200, JSON.stringify(member.body));
  assert.deepEqual(member.body.files.map((f: any) => f.name), ['in-zone.e57']);
});

test('connect import: scans signed, PUT and registered through the job land in its work zone and are listed by it', async () => {
  const p = await project();
  const start = await api('projectOwner', 'POST', `${A1}/projects/${p.id}/workzones/${p.zone}/connect/import`);
  assert.equal(start.status, 200, JSON.stringify(start.body));
  const slug = start.body.slug;
  const before = await api('projectOwner', 'GET', `/connect/${slug}`);
  assert.equal(before.body.kind, 'import');
  assert.equal(before.body.state, 'waiting');
  assert.deepEqual(before.body.files, []);

  const bytes = crypto.randomBytes(50_000);
  const signed = await api('projectOwner', 'POST', `/connect/${slug}/files`, [item('imported.e57', bytes)]);
  assert.equal(signed.status, 200, JSON.stringify(signed.body));
  await put(signed.body.files[0].url, bytes);
  const reg = await api('projectOwner', 'PUT', `/connect/${slug}/files`, [{ ...item('imported.e57', bytes), blobName: signed.body.files[0].blobName }]);
  assert.equal(reg.status, 200, JSON.stringify(reg.body));
  // Registering again is idempotent and does not list the file twice.
  const again = await api('projectOwner', 'PUT', `/connect/${slug}/files`, [{ ...item('imported.e57', bytes), blobName: signed.body.files[0].blobName }]);
  assert.equal(again.status, 200);
  assert.equal(again.body[0].id, reg.body[0].id);

  const after = await api('projectOwner', 'GET', `/connect/${slug}`);
  assert.equal(after.body.state, 'received');
  assert.equal(after.body.files.length, 1);
  assert.equal(after.body.files[0].name, 'imported.e57');
  const got = Buffer.from(await (await fetch(after.body.files[0].url)).arrayBuffer());
  assert.ok(got.equals(bytes));
  // The file is a scan of the job's work zone, as API 2 lists it.
  const listed = await api('projectOwner', 'GET', `${A2}/projects/${p.id}/files?category=scan`);
  const file = listed.body.find((f: any) => f.name === 'imported.e57');
  assert.ok(file, JSON.stringify(listed.body));
  assert.equal(uuidOf(file.workzoneId), p.zone);
});

test('connect import takes laser scans only: another format is 400 invalid-input and nothing is signed', async () => {
  const p = await project();
  const { body } = await api('projectOwner', 'POST', `${A1}/projects/${p.id}/workzones/${p.zone}/connect/import`);
  const res = await api('projectOwner', 'POST', `/connect/${body.slug}/files`, [{ name: 'plan.pdf', extension: 'pdf', size: 10, md5: '0'.repeat(32) }]);
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.errorCode, 'invalid-input');
  // An export job takes no uploads.
  const exp = await api('projectOwner', 'POST', `${A1}/projects/${p.id}/workzones/${p.zone}/connect/export`, {});
  const refused = await api('projectOwner', 'POST', `/connect/${exp.body.slug}/files`, [item('x.e57', Buffer.from('x'))]);
  assert.equal(refused.status, 400);
});

test('connect jobs: a Viewer may neither start nor see them, outsiders get 403, unknown slugs 404, no token 401', async () => {
  const p = await project();
  const roles = await api('owner', 'GET', `${A2}/roles`);
  const viewer = uuidOf(roles.body.find((r: any) => r.name === 'Viewer').id);
  const add = await api('projectOwner', 'POST', `${A2}/projects/${p.id}/members`, { members: { users: [{ user: emailOf('viewer'), role: viewer }] } });
  assert.equal(add.status, 204, JSON.stringify(add.body));

  const exp = await api('viewer', 'POST', `${A1}/projects/${p.id}/workzones/${p.root}/connect/export`, {});
  assert.equal(exp.status, 403, JSON.stringify(exp.body));
  assert.equal(exp.body.code, 'create-connect-export-forbidden');
  const imp = await api('viewer', 'POST', `${A1}/projects/${p.id}/workzones/${p.root}/connect/import`);
  assert.equal(imp.status, 403);
  assert.equal(imp.body.code, 'create-connect-import-forbidden');

  const mine = await api('projectOwner', 'POST', `${A1}/projects/${p.id}/workzones/${p.root}/connect/export`, {});
  assert.equal((await api('viewer', 'GET', `/connect/${mine.body.slug}`)).status, 403);
  const outsider = await api('outsider', 'GET', `/connect/${mine.body.slug}`);
  // Someone outside the account learns nothing of the job's existence (issue 26: no existence oracles).
  assert.equal(outsider.status, 404);
  assert.equal(outsider.body.status, 404); // problem+json
  assert.equal((await api('projectOwner', 'GET', `/connect/${'A'.repeat(22)}`)).status, 404);
  assert.equal((await api('projectOwner', 'GET', '/connect/..%2F..%2Fetc')).status, 404);
  assert.equal((await fetch(`${server.url}/connect/${mine.body.slug}`)).status, 401);
});

test('connect: malformed bodies and references answer 4xx in the surface\'s format, never 5xx, and start no job', async () => {
  const p = await project();
  const exp = `${A1}/projects/${p.id}/workzones/${p.root}/connect/export`;
  for (const body of [{ scanIds: { a: 1 } }, { workzoneIds: [''] }, { other: true }, { scanIds: ['x'.repeat(300)] }]) {
    const res = await api('projectOwner', 'POST', exp, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(typeof res.body.code, 'string'); // API 1 {code, message}
  }
  const unknownScan = await api('projectOwner', 'POST', exp, { scanIds: ['00000000-0000-4000-8000-000000000000'] });
  assert.equal(unknownScan.status, 404);
  // JSON bodies keep their types (docs/decisions.md): a lone string where a list is wanted is refused, naming the field.
  const lone = await api('projectOwner', 'POST', exp, { scanIds: 'x' });
  assert.equal(lone.status, 400);
  assert.match(String(lone.body.message), /scanIds/);
  assert.equal((await api('projectOwner', 'POST', `${A1}/projects/${p.id}/workzones/urn:svc:project:${p.id}/connect/import`)).status, 400);
  const { body } = await api('projectOwner', 'POST', `${A1}/projects/${p.id}/workzones/${p.zone}/connect/import`);
  for (const items of [{}, [], [{ name: 'a.e57' }], [{ name: 'a', extension: 'e57', size: -1, md5: 'zz' }]]) {
    const res = await api('projectOwner', 'POST', `/connect/${body.slug}/files`, items);
    assert.equal(res.status, 400, JSON.stringify(items));
    assert.equal(res.body.status, 400); // problem+json
  }
  assert.deepEqual((await api('projectOwner', 'GET', `/connect/${body.slug}`)).body.files, []);
});
