// Helpers of the file tests: digests, the sign → PUT → register steps through app.inject
// (the local-disk store's signed URLs are served by the app itself), and what the
// database and the store hold.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { TestApp } from './app.ts';
import { A2, uuidOf, type Call } from './projects.ts';
import { blobKey } from '../../src/core/ports/object-store.ts';

export const md5Hex = (b: Uint8Array | string) => crypto.createHash('md5').update(b).digest('hex');
export const md5B64 = (b: Uint8Array | string) => crypto.createHash('md5').update(b).digest('base64');

export const bytes = (n: number, seed = 1): Buffer => {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 31 + seed * 7) & 0xff;
  return b;
};

/** n bytes that start with PNG's signature (covers and thumbnails must be real images). */
export const pngBytes = (n: number, seed = 1): Buffer => {
  const b = bytes(Math.max(n, 8), seed);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b);
  return b;
};

export interface Spec {
  name: string;
  extension: string;
  content: Buffer;
}

export const item = (s: Spec) => ({ name: s.name, extension: s.extension, size: s.content.length, md5: md5Hex(s.content) });

export const bulkUrl = (projectId: string, zoneId: string) => `${A2}/projects/${uuidOf(projectId)}/workzones/${uuidOf(zoneId)}/bulk-files`;
export const filesUrl = (projectId: string) => `${A2}/projects/${uuidOf(projectId)}/files`;

const listening = new WeakMap<TestApp, Promise<string>>();

/** The app on a loopback port (the signed URLs' bytes go through a real socket, as a client's would). */
export function origin(t: TestApp): Promise<string> {
  let o = listening.get(t);
  if (!o) {
    o = t.app.listen({ host: '127.0.0.1', port: 0 });
    listening.set(t, o);
  }
  return o;
}

/** A signed URL of the store, pointed at the listening app. */
export async function local(t: TestApp, url: string): Promise<string> {
  const u = new URL(url);
  return (await origin(t)) + u.pathname + u.search;
}

/** PUT of the bytes to a signed URL with the three headers of the spec's step 2. */
export async function putSigned(t: TestApp, url: string, content: Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(await local(t, url), {
    method: 'PUT', body: new Uint8Array(content),
    headers: {
      'content-md5': md5B64(content), 'cache-control': 'max-age=2592000', 'x-ms-blob-type': 'BlockBlob',
      'content-type': 'application/octet-stream', ...headers,
    },
  });
  return { statusCode: res.status, body: await res.text() };
}

/** GET of a signed download URL. */
export async function getSigned(t: TestApp, url: string, headers: Record<string, string> = {}) {
  const res = await fetch(await local(t, url), { headers });
  return { statusCode: res.status, body: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

/** Sign (200 asserted): answers the sign body. */
export async function sign(call: Call, projectId: string, zoneId: string, specs: Spec[]) {
  const res = await call('POST', bulkUrl(projectId, zoneId), specs.map(item));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { provider: string; expiresIn: number; files: { name: string; extension: string; size: number; md5: string; url: string; blobName: string }[] };
}

/** Sign, upload, register (all asserted): answers the registered entries. */
export async function upload(t: TestApp, call: Call, projectId: string, zoneId: string, specs: Spec[]) {
  const signed = await sign(call, projectId, zoneId, specs);
  for (const [i, f] of signed.files.entries()) {
    const put = await putSigned(t, f.url, specs[i]!.content);
    assert.ok(put.statusCode >= 200 && put.statusCode < 300, `PUT ${put.statusCode} ${put.body}`);
  }
  const res = await call('PUT', bulkUrl(projectId, zoneId), signed.files.map((f) => ({ ...item(specs[signed.files.indexOf(f)]!), blobName: f.blobName })));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { name: string; extension: string; size: number; md5: string; id: string; blobName: string }[];
}

/** Every pending upload of the project (expired ones too). */
export const pendingOf = async (t: TestApp, projectId: string) =>
  [
    ...(await t.core.store.repos.uploads.listLive(uuidOf(projectId), 'file', new Date(0))),
    ...(await t.core.store.repos.uploads.listLive(uuidOf(projectId), 'project-cover', new Date(0))),
    ...(await t.core.store.repos.uploads.listLive(uuidOf(projectId), 'crop-cover', new Date(0))),
  ];

/** Every file row of the project. */
export const fileRowsOf = (t: TestApp, projectId: string) => t.core.store.repos.files.list(uuidOf(projectId));

/** The stored object of a blob, or null. */
export const storedObject = (t: TestApp, projectId: string, blobName: string) => t.core.objectStore.stat(blobKey(uuidOf(projectId), blobName));
