// A started service (the SDK tests' world), the owner's client of it and a scratch folder:
// what an SDK test of transfers needs before its first call. The before/after hooks are
// registered by the call, at the test file's top level (as the CLI's signedInCli).
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createScanbaseClient, type ScanbaseClient } from '../../src/node/index.ts';
import { startSdkWorld, type SdkWorld } from './server.ts';

export interface ClientWorld {
  readonly world: SdkWorld;
  /** The project owner's client (a bearer token the operator surface issued). */
  readonly client: ScanbaseClient;
  readonly token: string;
  /** A temporary folder, removed after the file's tests. */
  readonly dir: string;
}

export function clientWorld(options: { name: string }): ClientWorld {
  let state: { world: SdkWorld; client: ScanbaseClient; token: string; dir: string } | undefined;
  before(async () => {
    const world = await startSdkWorld();
    const token = await world.ownerToken();
    state = { world, token, client: createScanbaseClient({ baseUrl: world.url, accessToken: token }), dir: fs.mkdtempSync(path.join(os.tmpdir(), `sdk-${options.name}-`)) };
  });
  after(async () => {
    await state?.world.stop();
    if (state) fs.rmSync(state.dir, { recursive: true, force: true });
  });
  const started = () => {
    assert.ok(state, 'the client world is used before its before() hook ran');
    return state;
  };
  return {
    get world() { return started().world; },
    get client() { return started().client; },
    get token() { return started().token; },
    get dir() { return started().dir; },
  };
}
