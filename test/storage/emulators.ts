// Storage emulators the contract tests start and stop themselves, on free loopback ports:
// Azurite (Azure Blob, in memory) as a child process, s3rver (S3) in process.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import S3rver, { type S3rverMiddleware } from 's3rver';
import { freePort } from '../support/server.ts';
import { ownChild, stopChild } from '../support/children.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

export interface Emulator {
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

export async function startAzurite(): Promise<Emulator & { connectionString: string }> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'azurite-'));
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/azurite/dist/src/blob/main.js'),
      '--blobHost', '127.0.0.1', '--blobPort', String(port),
      '--inMemoryPersistence', '--disableTelemetry', '--skipApiVersionCheck', '--silent',
    ],
    // In memory: nothing is written, but run in a temporary directory all the same.
    { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir },
  );
  ownChild(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`azurite exited (${child.exitCode}):\n${out}`);
    if (/successfully listens/.test(out)) break;
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`azurite did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const endpoint = `http://127.0.0.1:${port}/devstoreaccount1`;
  return {
    endpoint,
    port,
    connectionString: `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=${AZURITE_KEY};BlobEndpoint=${endpoint};`,
    async stop() {
      await stopChild(child, { graceMs: 10_000 });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;

/**
 * s3rver 3.7 answers ListParts (GET ?uploadId) and AbortMultipartUpload (DELETE ?uploadId)
 * with 405: these two are added in front of its router, over s3rver's own part files
 * (`uploads/<id>/<n>` and `<n>.md5`), answering the S3 API reference's XML (what the AWS
 * SDK parses): ListPartsResult in pages of `max-parts` (default 1000) after
 * `part-number-marker`, each part's ETag the MD5 of its bytes; NoSuchUpload (404) for an
 * unknown id; 204 for an abort, which removes the parts.
 */
function multipartComplement(server: S3rver): S3rverMiddleware {
  return async (ctx, next) => {
    const m = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
    const uploadId = ctx.query.uploadId;
    if (!m || typeof uploadId !== 'string' || 'partNumber' in ctx.query || (ctx.method !== 'GET' && ctx.method !== 'DELETE')) return next();
    const dir = path.join(server.store.getResourcePath(m[1]!, undefined, 'uploads'), uploadId);
    ctx.type = 'application/xml';
    if (!/^[0-9a-f]+$/.test(uploadId) || !fs.existsSync(dir)) {
      ctx.status = 404;
      ctx.body = xml(`<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${uploadId}</UploadId></Error>`);
      return;
    }
    if (ctx.method === 'DELETE') {
      fs.rmSync(dir, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    const max = Number(ctx.query['max-parts'] ?? 1000);
    const marker = Number(ctx.query['part-number-marker'] ?? 0);
    // A part is listed once s3rver wrote its MD5 file (after its bytes): one being received is not.
    const numbers = fs.readdirSync(dir).filter((f) => /^\d+\.md5$/.test(f)).map((f) => Number(f.slice(0, -4))).filter((n) => n > marker).sort((a, b) => a - b);
    const page = numbers.slice(0, max);
    const parts = page.map((n) => {
      const st = fs.statSync(path.join(dir, String(n)));
      const md5 = fs.readFileSync(path.join(dir, `${n}.md5`), 'utf8');
      return `<Part><PartNumber>${n}</PartNumber><LastModified>${st.mtime.toISOString()}</LastModified><ETag>"${md5}"</ETag><Size>${st.size}</Size></Part>`;
    });
    const truncated = numbers.length > page.length;
    ctx.status = 200;
    ctx.body = xml(`<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${m[1]}</Bucket><Key>${m[2]}</Key><UploadId>${uploadId}</UploadId>`
      + `<PartNumberMarker>${marker}</PartNumberMarker><NextPartNumberMarker>${page.at(-1) ?? marker}</NextPartNumberMarker><MaxParts>${max}</MaxParts>`
      + `<IsTruncated>${truncated}</IsTruncated>${parts.join('')}</ListPartsResult>`);
  };
}

export async function startS3rver(): Promise<Emulator> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
  server.middleware.unshift(multipartComplement(server));
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    async stop() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
