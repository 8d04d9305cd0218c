// Storage emulators the contract tests start and stop themselves, on free loopback ports:
// Azurite (Azure Blob, in memory) as a child process, s3rver (S3) in process.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import S3rver from 's3rver';
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

export async function startS3rver(): Promise<Emulator> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
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
