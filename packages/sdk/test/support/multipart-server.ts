// A small real HTTP server implementing the multipart extension of docs/files.md
// ("Multipart uploads") over the real store adapters, for the SDK's and the CLI's tests
// that count the parts a store receives, on the three stores (the service's own routes,
// src/modules/uploads, are driven by the CLI in packages/cli/test/cli-multipart-real-server.test.ts).
// It keeps its uploads and files in memory, answers errors as RFC 9457 problem+json like
// the service, checks a bearer token is present (any), and serves the local-disk store's
// signed URLs with the service's own /_blobs routes (src/modules/files/http/blobs.ts). It counts the
// part PUTs it receives (local disk), for the resume tests.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { LocalDiskStore } from '../../../../src/adapters/storage/local-disk.ts';
import { blobRoutes } from '../../../../src/modules/files/http/blobs.ts';
import type { Core } from '../../../../src/compose.ts';
import { DomainError, invalidInput } from '../../../../src/core/errors.ts';
import { partCountOf, planPartSize } from '../../../../src/core/ports/multipart-plan.ts';
import type { MultipartUpload, ObjectStore } from '../../../../src/core/ports/object-store.ts';

export interface FakeFile {
  id: string;
  name: string;
  extension: string;
  size: number;
  md5: string;
  blobName: string;
  workzoneId: string;
}

interface Upload {
  id: string;
  projectId: string;
  workzoneId: string;
  name: string;
  extension: string;
  blobName: string;
  store: MultipartUpload;
  fileId?: string;
}

export interface MultipartServer {
  url: string;
  store: ObjectStore;
  files: Map<string, FakeFile>;
  /** Part numbers the store received whole / whose PUT began, in order (local disk only). */
  partsReceived: number[];
  partsStarted: number[];
  /** The body of every completion, in order (what the client sent: the whole MD5 or not). */
  completions: { md5?: string; partsMd5?: string }[];
  /** Resolves once no part PUT is being received (what a killed client sent has landed or failed). */
  idle(): Promise<void>;
  /** The store's upload of a service upload id. */
  storeUpload(id: string): MultipartUpload;
  stop(): Promise<void>;
}

const UPLOAD_TTL_SECONDS = 3600;

function problem(reply: FastifyReply, e: unknown) {
  if (e instanceof DomainError) {
    return reply.code(e.status).type('application/problem+json').send({
      type: 'about:blank', title: e.code, status: e.status, detail: e.message, errorCode: e.code, errorValues: e.values ?? {},
    });
  }
  throw e;
}

/**
 * Starts the server. `store` is an adapter (S3 or Azure on an emulator); without it, a
 * local-disk store in a temporary directory whose URLs the server itself receives.
 * `partSize`: the part size asked for every upload (the service's default otherwise).
 */
export async function startMultipartServer(o: { store?: ObjectStore; partSize?: number } = {}): Promise<MultipartServer> {
  const app: FastifyInstance = Fastify();
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  await app.close();

  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'multipart-server-'));
  const key = crypto.randomBytes(32);
  const store = o.store ?? new LocalDiskStore({ root, publicUrl: url, signingKey: async () => key, clock: { now: () => new Date(), nowMs: () => Date.now() } });
  if (store instanceof LocalDiskStore) await store.init();

  const server = Fastify();
  const uploads = new Map<string, Upload>();
  const files = new Map<string, FakeFile>();
  const partsReceived: number[] = [];
  const partsStarted: number[] = [];
  const completions: { md5?: string; partsMd5?: string }[] = [];
  let receiving = 0;
  const idleWaiters: (() => void)[] = [];

  // Counts what the store itself received: a part lands when receivePart resolves, which for
  // a client killed after its last byte is after its connection closed.
  if (store instanceof LocalDiskStore) {
    const receivePart = store.receivePart.bind(store);
    store.receivePart = async (part, body) => {
      receiving++;
      try {
        const got = await receivePart(part, body);
        partsReceived.push(part.partNumber);
        return got;
      } finally {
        receiving--;
        if (receiving === 0) for (const w of idleWaiters.splice(0)) w();
      }
    };
  }

  server.addHook('onRequest', async (req, reply) => {
    if (req.url.startsWith('/_blobs/')) {
      const part = new URL(req.url, url).searchParams.get('part');
      if (req.method === 'PUT' && part) partsStarted.push(Number(part));
      return;
    }
    if (!/^Bearer \S+$/.test(req.headers.authorization ?? '')) {
      return reply.code(401).type('application/problem+json').send({ type: 'about:blank', title: 'unauthorized', status: 401, errorCode: 'unauthorized' });
    }
  });
  await server.register(blobRoutes({ objectStore: store, config: { publicUrl: url } } as unknown as Core));

  const base = '/api/2/accounts/:a/projects/:p/workzones/:w/multipart-uploads';
  type Params = { a: string; p: string; w: string; id: string };
  const uploadOf = (params: Params) => {
    const u = uploads.get(params.id);
    if (!u || u.projectId !== params.p || u.workzoneId !== params.w) throw new DomainError('not-found', 'upload-not-found', 'No such multipart upload');
    return u;
  };
  const answer = (u: Upload) => ({
    id: u.id, blobName: u.blobName, name: u.name, extension: u.extension, size: u.store.size, partSize: u.store.partSize,
    partCount: partCountOf(u.store), provider: store.provider, expiresAt: new Date(Date.now() + UPLOAD_TTL_SECONDS * 1000).toISOString(),
  });

  server.post<{ Params: Params; Body: { name: string; extension: string; size: number; partSize?: number } }>(base, async (req, reply) => {
    try {
      const b = req.body;
      if (typeof b?.name !== 'string' || typeof b.extension !== 'string') throw invalidInput('name and extension are required');
      const partSize = planPartSize(b.size, store.multipartLimits, o.partSize ?? b.partSize);
      const blobName = `${crypto.randomUUID()}.${b.extension.toLowerCase()}`;
      const projectUuid = req.params.p.replace(/^.*:/, '');
      const upload = await store.createMultipart({ key: `${projectUuid}/${blobName}`, size: b.size, partSize });
      const u: Upload = { id: crypto.randomUUID(), projectId: req.params.p, workzoneId: req.params.w, name: b.name, extension: b.extension, blobName, store: upload };
      uploads.set(u.id, u);
      return reply.code(201).send(answer(u));
    } catch (e) {
      return problem(reply, e);
    }
  });

  server.post<{ Params: Params; Body: { parts: { partNumber: number; md5: string }[] } }>(`${base}/:id/part-urls`, async (req, reply) => {
    try {
      const u = uploadOf(req.params);
      const parts = req.body?.parts;
      if (!Array.isArray(parts) || parts.length < 1 || parts.length > 1000) throw invalidInput('parts: 1 to 1000 items');
      const signed = await store.signParts({ upload: u.store, parts: parts.map((p) => ({ partNumber: p.partNumber, md5Hex: p.md5 })), expiresInSeconds: UPLOAD_TTL_SECONDS }, new Date());
      return { expiresIn: UPLOAD_TTL_SECONDS, parts: signed.map((s) => ({ partNumber: s.partNumber, size: s.size, url: s.url, headers: s.headers })) };
    } catch (e) {
      return problem(reply, e);
    }
  });

  server.get<{ Params: Params; Querystring: { after?: string; limit?: string } }>(`${base}/:id/parts`, async (req, reply) => {
    try {
      const u = uploadOf(req.params);
      const after = Number(req.query.after ?? 0);
      const limit = Math.min(1000, Number(req.query.limit ?? 1000));
      const held = (await store.listParts(u.store)).filter((p) => p.partNumber > after);
      const page = held.slice(0, limit);
      return { parts: page.map((p) => ({ partNumber: p.partNumber, size: p.size, md5: p.md5Hex })), next: held.length > limit ? page.at(-1)!.partNumber : null };
    } catch (e) {
      return problem(reply, e);
    }
  });

  server.post<{ Params: Params; Body: { md5?: string; partsMd5?: string } }>(`${base}/:id/complete`, async (req, reply) => {
    try {
      completions.push({ ...req.body });
      const u = uploadOf(req.params);
      if (u.fileId) throw new DomainError('conflict', 'upload-already-completed', 'This upload was completed already', { fileId: u.fileId, blobName: u.blobName });
      const sent = req.body?.md5;
      if (sent !== undefined && (typeof sent !== 'string' || !/^[0-9a-fA-F]{32}$/.test(sent))) throw invalidInput('md5 must be 32 hex digits');
      // Left out: the store computes it (local disk), or refuses (S3, Azure), as the service does.
      const done = await store.completeMultipart({ upload: u.store, md5Hex: sent?.toLowerCase(), partsMd5Hex: req.body.partsMd5 });
      const md5 = sent?.toLowerCase() ?? done.md5Hex;
      if (!md5) throw invalidInput('md5 is required on this store');
      const f: FakeFile = { id: `urn:svc:file:${crypto.randomUUID()}`, name: u.name, extension: u.extension, size: u.store.size, md5, blobName: u.blobName, workzoneId: u.workzoneId };
      files.set(f.id, f);
      u.fileId = f.id;
      return reply.code(201).send(f);
    } catch (e) {
      return problem(reply, e);
    }
  });

  server.delete<{ Params: Params }>(`${base}/:id`, async (req, reply) => {
    try {
      const u = uploadOf(req.params);
      await store.abortMultipart(u.store);
      uploads.delete(u.id);
      return reply.code(204).send();
    } catch (e) {
      return problem(reply, e);
    }
  });

  server.get<{ Params: { a: string; p: string; f: string } }>('/api/2/accounts/:a/projects/:p/files/:f', async (req, reply) => {
    const f = files.get(req.params.f);
    return f ? f : problem(reply, new DomainError('not-found', 'file-not-found', 'No such file'));
  });

  server.get<{ Params: { a: string; p: string; b: string } }>('/api/2/accounts/:a/projects/:p/blobs/:b', async (req, reply) => {
    const f = [...files.values()].find((x) => x.blobName === req.params.b);
    if (!f) return problem(reply, new DomainError('not-found', 'blob-not-found', 'No such blob'));
    const target = await store.signDownload({ key: `${req.params.p.replace(/^.*:/, '')}/${f.blobName}`, contentType: 'application/octet-stream', expiresInSeconds: 3 * 3600 }, new Date());
    return reply.redirect(target, 302);
  });

  await server.listen({ host: '127.0.0.1', port: Number(new URL(url).port) });
  return {
    url, store, files, partsReceived, partsStarted, completions,
    storeUpload: (id) => uploads.get(id)!.store,
    idle: () => (receiving === 0 ? Promise.resolve() : new Promise((resolve) => idleWaiters.push(resolve))),
    async stop() {
      await server.close();
      await store.close?.();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
