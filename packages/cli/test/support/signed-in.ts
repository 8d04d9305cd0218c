// A started service (the SDK tests' world) and a configuration folder where the CLI is
// signed in, once per profile, with tokens the operator surface issues: what a test of a
// `scanbase <command>` against a real service needs before its first command. The
// before/after hooks are registered by the call, at the test file's top level.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSdkWorld, type SdkWorld } from '../../../sdk/test/support/server.ts';
import { scanbase, type Run } from './run.ts';

export { ok } from './run.ts';

export interface SignedInOptions {
  /** Names the temporary configuration folder (`scanbase-cli-<name>-…`). */
  name: string;
  /** Profile → e-mail of the user signed in under it; default: the world's owner, unnamed profile. */
  profiles?: Record<string, string>;
  /** The service's own settings (third parties' addresses, …). */
  env?: Record<string, string>;
}

export interface SignedInCli {
  readonly world: SdkWorld;
  readonly configDir: string;
  /** `scanbase …` on the signed-in folder; with `profile`, under that profile. */
  run(args: string[], o?: { profile?: string; stdin?: string }): Promise<Run>;
}

export function signedInCli(options: SignedInOptions): SignedInCli {
  let world: SdkWorld | undefined;
  let configDir: string | undefined;
  before(async () => {
    world = await startSdkWorld(options.env);
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), `scanbase-cli-${options.name}-`));
    const profiles = Object.entries(options.profiles ?? { '': world.owner.email });
    for (const [profile, email] of profiles) {
      const pair = await world.operator('POST', '/tokens', { email });
      const login = await scanbase([...(profile ? ['--profile', profile] : []), 'login', '--with-token', '--base-url', world.url], { configDir, stdin: JSON.stringify(pair) });
      assert.equal(login.code, 0, login.stderr);
    }
  });
  after(async () => {
    await world?.stop();
    if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
  });
  const started = <T>(value: T | undefined): T => {
    assert.ok(value !== undefined, 'the signed-in CLI is used before its before() hook ran');
    return value;
  };
  return {
    get world() { return started(world); },
    get configDir() { return started(configDir); },
    run: (args, o = {}) => scanbase([...(o.profile ? ['--profile', o.profile] : []), ...args], { configDir: started(configDir), stdin: o.stdin }),
  };
}
