// A module owns its settings (issue 28, docs/architecture.md "Adding a module"): its contract
// declares the rows and reads them (src/modules/<m>/settings.ts); src/config.ts merges every
// module's values into the node's Config; the README's table of the modules' settings is
// generated from the rows. Each rule below is also shown failing on a planted violation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { loadKernelConfig, type Env } from '../../src/kernel-config.ts';
import { loadConfig, mergeModuleSettings } from '../../src/config.ts';
import { MODULE_SETTINGS } from '../../src/modules/registries.ts';
import type { ModuleSettings } from '../../src/modules/contract.ts';
import { README, settingsBlock, withBlock } from '../../scripts/settings-table.ts';

/** The variables a reader looks at (every get and `in` of the environment it is given). */
function variablesRead(read: (env: Env) => unknown, env: Env = {}): Set<string> {
  const seen = new Set<string>();
  const spy = new Proxy(env, {
    get: (target, name) => (typeof name === 'string' && seen.add(name), target[name as string]),
    has: (target, name) => (typeof name === 'string' && seen.add(name), name in target),
  });
  read(spy);
  return seen;
}

/** The variables a module's reader reads that its rows do not declare. */
function undeclared(settings: ModuleSettings): string[] {
  const kernel = loadKernelConfig({});
  const declared = new Set(settings.rows.map((r) => r.env));
  return [...variablesRead((env) => settings.read(env, kernel))].filter((name) => !declared.has(name));
}

test("each module's reader reads only the variables its rows declare, and the kernel's none of them", () => {
  assert.ok(MODULE_SETTINGS.length >= 10, MODULE_SETTINGS.map((m) => m.module).join(', '));
  for (const { module, settings } of MODULE_SETTINGS) assert.deepEqual(undeclared(settings), [], `module ${module}`);
  const modulesVariables = new Set(MODULE_SETTINGS.flatMap((m) => m.settings.rows.map((r) => r.env)));
  const kernelReads = [...variablesRead((env) => loadKernelConfig(env))].filter((name) => modulesVariables.has(name));
  assert.deepEqual(kernelReads, [], 'a module variable read by the kernel');
  // Planted: a reader that reads a variable it does not declare.
  const sly: ModuleSettings<{ x: string | undefined }> = { rows: [{ env: 'X_DECLARED', default: 'unset', does: 'x' }], read: (env) => ({ x: env.X_DECLARED ?? env.X_HIDDEN }) };
  assert.deepEqual(undeclared(sly), ['X_HIDDEN']);
});

test('a variable belongs to one module, and a Config key to one owner', () => {
  const owners = new Map<string, string>();
  for (const { module, settings } of MODULE_SETTINGS) {
    for (const { env } of settings.rows) {
      assert.equal(owners.get(env), undefined, `${env} is declared by ${owners.get(env)} and ${module}`);
      owners.set(env, module);
    }
  }
  const kernel = loadKernelConfig({});
  const mine = (key: string): ModuleSettings => ({ rows: [], read: () => ({ [key]: 1 }) });
  assert.throws(() => mergeModuleSettings({}, kernel, [{ module: 'a', settings: mine('k') }, { module: 'b', settings: mine('k') }]), /k is given by both module a and module b/);
  assert.throws(() => mergeModuleSettings({}, kernel, [{ module: 'a', settings: mine('publicUrl') }]), /publicUrl is given by both src\/kernel-config.ts and module a/);
  assert.deepEqual(mergeModuleSettings({}, kernel, [{ module: 'a', settings: mine('k') }]).k, 1);
});

test("the node's Config holds each module's values, read with the kernel's settings at hand", () => {
  const c = loadConfig({ SANDBOX: '1', DATA_DIR: '/srv/scan', WEBHOOKS_TIMEOUT: '7', HIDE_PRIVACY_DATA: 'on', PUBLIC_URL: 'https://scans.example.com' });
  assert.equal(c.webhooks.timeoutSeconds, 7);
  assert.equal(c.hidePrivacyData, true);
  assert.equal(c.rateLimits.user.rate, 0, 'the limits module reads SANDBOX from the kernel: off in a sandbox');
  assert.equal(c.sandboxTools.snapshotsDir, '/srv/scan/snapshots', "the sandbox module's default follows DATA_DIR");
  assert.equal(c.mail.from, 'Scanbase <no-reply@scans.example.com>', "the mail module's default follows PUBLIC_URL");
  assert.equal(loadConfig({}).rateLimits.user.rate, 20);
});

test("the README's table of the modules' settings is the one their rows give (npm run docs:settings)", () => {
  const readme = fs.readFileSync(README, 'utf8');
  assert.equal(withBlock(readme, settingsBlock()), readme, 'README.md is stale: run npm run docs:settings');
  for (const { settings } of MODULE_SETTINGS) for (const { env } of settings.rows) assert.match(settingsBlock(), new RegExp(`^\\| \`${env}\` \\|`, 'm'));
  // Planted: a row edited by hand in the README is found.
  const edited = readme.replace('| `MAIL_MAX_ATTEMPTS` | mail | `8` |', '| `MAIL_MAX_ATTEMPTS` | mail | `9` |');
  assert.notEqual(edited, readme);
  assert.notEqual(withBlock(edited, settingsBlock()), edited);
});
