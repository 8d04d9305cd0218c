// Security of stored blobs (docs/security.md "Blobs"): the stored-script attack on the
// service's own origin (html uploaded as a cover or crop thumbnail, replayed from the
// signed download URL) is refused at registration, and whatever is stored, a /_blobs
// response never lets a browser run it: the service's type, nosniff, a sandbox CSP, and
// an attachment for everything but images.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { testApp, type TestApp } from '../support/app.ts';
import { A2, ACCOUNT_ID, addMembers, assertProblem, createProject, createZone, emailOf, projectWorld, uuidOf, type World } from '../support/projects.ts';
import { bytes, getSigned, md5Hex, pngBytes, putSigned, sign, storedObject, upload } from '../support/files.ts';
import { projectEventOf } from '../../src/core/events/domain-events.ts';
import { loadConfig } from '../../src/config.ts';
import { openObjectStore } from '../../src/adapters/storage/open.ts';

let t: TestApp;
let w: World;

before(async () => {
  t = await testApp();
  w = await projectWorld(t);
});
after(() => t.close());

const HTML = Buffer.from('<html><body><script>fetch("/oauth/authorize?client_id=x").then(r=>r.text())</script></body></html>');
const cover = (content: Buffer, extension = 'png') => ({ name: 'cover', extension, size: content.length, md5: md5Hex(content) });

async function contributorProject() {
  const p = await createProject(w.as.projectOwner!);
  await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('bob'), role: w.roles.Contributor }, { user: emailOf('manager'), role: w.roles.Manager }] });
  return p;
}

/** Follows a …/blobs/{name} 302 to the /_blobs response. */
async function download(projectId: string, blobName: string) {
  const res = await w.as.projectOwner!('GET', `${A2}/projects/${uuidOf(projectId)}/blobs/${blobName}`);
  assert.equal(res.status, 302, JSON.stringify(res.body));
  return getSigned(t, String(res.headers.location));
}

const assertBlobHeaders = (h: Headers) => {
  assert.equal(h.get('x-content-type-options'), 'nosniff');
  assert.equal(h.get('content-security-policy'), "sandbox; default-src 'none'");
};

test('html uploaded as a project cover is refused at registration (400 naming the file), nothing recorded', async () => {
  const p = await createProject(w.as.projectOwner!);
  const url = `${A2}/projects/${uuidOf(p.id)}/cover`;
  const signed = await w.as.projectOwner!('POST', url, cover(HTML));
  assert.equal(signed.status, 200, JSON.stringify(signed.body));
  assert.ok((await putSigned(t, signed.body.file.url, HTML, { 'content-type': 'text/html' })).statusCode < 300);
  const res = await w.as.projectOwner!('PUT', url, cover(HTML));
  assertProblem(res, 400, 'cover-not-an-image');
  assert.match(res.body.detail ?? res.body.title ?? JSON.stringify(res.body), new RegExp(signed.body.file.blobName.replace('.', '\\.')));
  assert.equal(res.body.errorValues?.blobName ?? res.body.blobName, signed.body.file.blobName);
  const project = await w.as.projectOwner!('GET', `${A2}/projects/${uuidOf(p.id)}`);
  assert.equal(project.body.coverBlobName ?? null, null, 'the cover is not set');
  // A JPEG cover must carry JPEG's signature, not PNG's.
  const png = pngBytes(64, 3);
  const jpg = await w.as.projectOwner!('POST', url, cover(png, 'jpg'));
  assert.ok((await putSigned(t, jpg.body.file.url, png)).statusCode < 300);
  assertProblem(await w.as.projectOwner!('PUT', url, cover(png, 'jpg')), 400, 'cover-not-an-image');
});

test('html uploaded as a crop thumbnail is refused when a crop names it (400 naming the file), the crop unchanged', async () => {
  const p = await contributorProject();
  const crops = `${A2}/projects/${uuidOf(p.id)}/crops`;
  const body = (extra: Record<string, unknown> = {}) => ({
    workzoneId: p.rootWorkzoneId, name: 'Crop', crop: '[]', actualCrop: '[]', rotation: '0', cameraType: 'overview',
    cameraState: '{}', scan: 's', layers: null, oview: 1, settings: null, ...extra,
  });
  const c = await w.as.manager!('POST', crops, body());
  assert.equal(c.status, 201, JSON.stringify(c.body));
  const signed = await w.as.manager!('POST', `${crops}/${c.body.id}/cover`, cover(HTML));
  assert.equal(signed.status, 200, JSON.stringify(signed.body));
  assert.ok((await putSigned(t, signed.body.file.url, HTML, { 'content-type': 'text/html' })).statusCode < 300);
  const res = await w.as.manager!('PUT', `${crops}/${c.body.id}`, body({ thumbnailBlobName: signed.body.file.blobName }));
  assertProblem(res, 400, 'cover-not-an-image');
  const after = await w.as.manager!('GET', `${crops}/${c.body.id}`);
  assert.equal(after.body.thumbnailBlobName ?? null, null);
});

test('a blob is served with the service\'s content type, never the uploader\'s; non-images are attachments', async () => {
  const p = await contributorProject();
  const bob = w.as.bob!;
  // A Contributor uploads html as a document and as a file of an unknown extension.
  const specs = [
    { name: 'notes', extension: 'txt', content: HTML },
    { name: 'page', extension: 'html', content: HTML },
  ];
  const signed = await sign(bob, p.id, p.rootWorkzoneId, specs);
  for (const [i, f] of signed.files.entries()) {
    assert.ok((await putSigned(t, f.url, specs[i]!.content, { 'content-type': 'text/html' })).statusCode < 300);
  }
  const reg = await bob('PUT', `${A2}/projects/${uuidOf(p.id)}/workzones/${uuidOf(p.rootWorkzoneId)}/bulk-files`,
    signed.files.map((f) => ({ name: f.name, extension: f.extension, size: f.size, md5: f.md5, blobName: f.blobName })));
  assert.equal(reg.status, 200, JSON.stringify(reg.body));
  const txt = await download(p.id, signed.files[0]!.blobName);
  assert.equal(txt.statusCode, 200);
  assert.equal(txt.headers.get('content-type'), 'text/plain; charset=utf-8');
  assert.match(txt.headers.get('content-disposition') ?? '', /^attachment; filename="notes\.txt"/);
  assertBlobHeaders(txt.headers);
  const html = await download(p.id, signed.files[1]!.blobName);
  assert.equal(html.headers.get('content-type'), 'application/octet-stream');
  assert.match(html.headers.get('content-disposition') ?? '', /^attachment; filename="page\.html"/);
  assertBlobHeaders(html.headers);
  // HEAD answers the same headers.
  const location = new URL(String((await w.as.projectOwner!('GET', `${A2}/projects/${uuidOf(p.id)}/blobs/${signed.files[1]!.blobName}`)).headers.location));
  const head = await t.app.inject({ method: 'HEAD', url: location.pathname + location.search });
  assert.equal(head.headers['content-type'], 'application/octet-stream');
  assert.equal(head.headers['x-content-type-options'], 'nosniff');
});

test('every /_blobs response carries nosniff and the sandbox CSP, refusals included', async () => {
  const p = await createProject(w.as.projectOwner!);
  const signed = await sign(w.as.projectOwner!, p.id, p.rootWorkzoneId, [{ name: 'a', extension: 'pdf', content: HTML }]);
  const url = new URL(signed.files[0]!.url);
  const tampered = url.pathname + url.search.replace(/sig=[^&]+/, 'sig=AAAA');
  for (const method of ['GET', 'PUT', 'HEAD'] as const) {
    const res = await t.app.inject({ method, url: tampered });
    assert.equal(res.statusCode, 403, `${method} ${res.statusCode}`);
    assert.equal(res.headers['x-content-type-options'], 'nosniff', method);
    assert.equal(res.headers['content-security-policy'], "sandbox; default-src 'none'", method);
  }
});

test('a real PNG cover is served inline as image/png (no attachment), with nosniff and the sandbox CSP', async () => {
  const p = await createProject(w.as.projectOwner!);
  const png = pngBytes(400, 9);
  const url = `${A2}/projects/${uuidOf(p.id)}/cover`;
  const signed = await w.as.projectOwner!('POST', url, cover(png));
  assert.ok((await putSigned(t, signed.body.file.url, png, { 'content-type': 'text/html' })).statusCode < 300);
  assert.equal((await w.as.projectOwner!('PUT', url, cover(png))).status, 200);
  const res = await download(p.id, signed.body.file.blobName);
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers.get('content-type'), 'image/png');
  assert.equal(res.headers.get('content-disposition'), null);
  assertBlobHeaders(res.headers);
  assert.ok(res.body.equals(png));
});

test('BLOB_PUBLIC_URL: the local store\'s signed URLs are built on it instead of PUBLIC_URL', async () => {
  const config = loadConfig({ DATABASE_URL: 'memory:', PUBLIC_URL: 'https://scanbase.example.test', BLOB_PUBLIC_URL: 'https://blobs.example.test/' });
  assert.equal(config.blobPublicUrl, 'https://blobs.example.test');
  const store = await openObjectStore(config, { clock: t.core.clock, signingKey: async () => Buffer.alloc(32, 7) });
  try {
    assert.equal(store.provider, 'local');
    const up = await store.signUpload({ key: 'p/b.png', size: 1, md5Hex: md5Hex('x'), expiresInSeconds: 60 }, new Date());
    assert.ok(up.url.startsWith('https://blobs.example.test/_blobs/p/b.png?'), up.url);
    const down = await store.signDownload({ key: 'p/b.png', contentType: 'image/png', expiresInSeconds: 60 }, new Date());
    assert.ok(down.startsWith('https://blobs.example.test/_blobs/p/b.png?'), down);
  } finally {
    await store.close?.();
  }
  assert.throws(() => loadConfig({ BLOB_PUBLIC_URL: 'ftp://x' }), /BLOB_PUBLIC_URL/);
  assert.throws(() => loadConfig({ BLOB_PUBLIC_URL: 'https://b.example', STORAGE_URL: 's3://bucket' }), /BLOB_PUBLIC_URL/);
});

// Item: a cover hijack destroyed another file's bytes.

/** Signs, uploads and registers a real PNG cover; answers its blob name. */
async function setCover(projectId: string, seed: number): Promise<string> {
  const png = pngBytes(200, seed);
  const url = `${A2}/projects/${uuidOf(projectId)}/cover`;
  const signed = await w.as.projectOwner!('POST', url, cover(png));
  assert.equal(signed.status, 200, JSON.stringify(signed.body));
  assert.ok((await putSigned(t, signed.body.file.url, png)).statusCode < 300);
  const res = await w.as.projectOwner!('PUT', url, { ...cover(png), blobName: signed.body.file.blobName });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return signed.body.file.blobName;
}

/** Writes a project's cover_blob_name directly (the state an older version let PUT/PATCH create). */
async function forceCover(projectId: string, blobName: string) {
  await t.core.store.transaction(async (repos) => {
    const project = (await repos.projects.byRef(ACCOUNT_ID, { uuid: uuidOf(projectId) }))!;
    await repos.projects.update(project.id, { ...project, coverBlobName: blobName }, project.ownerId, new Date());
    await repos.events.publish(projectEventOf('project.updated', project, `project:${project.id}`, {
      fields: ['coverBlobName'], ownerId: project.ownerId, subscriptionId: project.subscriptionId,
    }), new Date());
  });
}

test('a cover is only set from a cover upload: PUT/PATCH coverBlobName naming another blob is 400, nothing changed', async () => {
  const p = await createProject(w.as.projectOwner!);
  const [file] = await upload(t, w.as.projectOwner!, p.id, p.rootWorkzoneId, [{ name: 'Report', extension: 'pdf', content: bytes(300, 4) }]);
  const url = `${A2}/projects/${uuidOf(p.id)}`;
  for (const method of ['PATCH', 'PUT'] as const) {
    const body = method === 'PATCH' ? { coverBlobName: file!.blobName } : {
      name: p.name, description: p.description ?? null, subscriptionId: p.subscriptionId, ownerId: p.ownerId,
      location: null, spatialReference: null, coverBlobName: file!.blobName,
    };
    const res = await w.as.projectOwner!(method, url, body);
    assertProblem(res, 400, 'invalid-input');
  }
  assert.equal((await w.as.projectOwner!('GET', url)).body.coverBlobName ?? null, null);
  // A registered cover still works, PATCH may keep it or clear it, and the file's bytes are intact.
  const blob = await setCover(p.id, 11);
  assert.equal((await w.as.projectOwner!('PATCH', url, { coverBlobName: blob })).status, 200);
  await setCover(p.id, 12);
  assert.notEqual(await storedObject(t, p.id, file!.blobName), null, 'the file keeps its object');
  assert.equal(await storedObject(t, p.id, blob), null, 'the replaced cover object is deleted');
  const cleared = await w.as.projectOwner!('PATCH', url, { coverBlobName: null });
  assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
  assert.equal(cleared.body.coverBlobName ?? null, null);
});

test('replacing a cover deletes only a cover object, never a file\'s named as the old cover', async () => {
  const p = await createProject(w.as.projectOwner!);
  const [file] = await upload(t, w.as.projectOwner!, p.id, p.rootWorkzoneId, [{ name: 'Scan', extension: 'e57', content: bytes(500, 6) }]);
  await forceCover(p.id, file!.blobName);
  await setCover(p.id, 13);
  assert.notEqual(await storedObject(t, p.id, file!.blobName), null, 'the file keeps its object');
});

test('a blob that is a crop thumbnail needs workzone:crops:read even when it is also named as the cover', async () => {
  const p = await contributorProject();
  const zone = await createZone(w.as.projectOwner!, p.id, p.rootWorkzoneId);
  // carol sees the project through one sub-zone only: not the root zone, where the crop is.
  await addMembers(w.as.projectOwner!, p.id, { users: [{ user: emailOf('carol'), role: w.roles.Manager }] }, [zone.id]);
  const crops = `${A2}/projects/${uuidOf(p.id)}/crops`;
  const body = (extra: Record<string, unknown> = {}) => ({
    workzoneId: p.rootWorkzoneId, name: 'Crop', crop: '[]', actualCrop: '[]', rotation: '0', cameraType: 'overview',
    cameraState: '{}', scan: 's', layers: null, oview: 1, settings: null, ...extra,
  });
  const c = await w.as.manager!('POST', crops, body());
  const png = pngBytes(120, 14);
  const signed = await w.as.manager!('POST', `${crops}/${c.body.id}/cover`, cover(png));
  assert.ok((await putSigned(t, signed.body.file.url, png)).statusCode < 300);
  const thumb = signed.body.file.blobName;
  assert.equal((await w.as.manager!('PUT', `${crops}/${c.body.id}`, body({ thumbnailBlobName: thumb }))).status, 200);
  const blobUrl = `${A2}/projects/${uuidOf(p.id)}/blobs/${thumb}`;
  assertProblem(await w.as.carol!('GET', blobUrl), 403, 'view-crop-forbidden');
  await forceCover(p.id, thumb);
  assertProblem(await w.as.carol!('GET', blobUrl), 403, 'view-crop-forbidden');
  assert.equal((await w.as.manager!('GET', blobUrl)).status, 302);
});
