// @engine-independent: the snapshot engine is covered on both engines in test/storage.
// `scanbase sandbox` end to end against one started service (SANDBOX=1, an operator token):
// a snapshot saved, downloaded, restored by name and from the file; a fault rule added from
// the command line and met by the SDK (its retry waits the 429's Retry-After), a bad rule
// refused naming the field (exit 6); the journal filtered and followed live; the clock moved
// back; the operator token required (exit 2).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createScanbaseClient } from '@scanbase/sdk';
import { startSdkWorld, OPERATOR_TOKEN, type SdkWorld } from '../../sdk/test/support/server.ts';
import { scanbase, type Run } from './support/run.ts';

let world: SdkWorld;
let configDir: string;
let work: string;

before(async () => {
  world = await startSdkWorld();
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-cli-sandbox-config-'));
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-cli-sandbox-work-'));
});
after(async () => {
  await world?.stop();
  for (const d of [configDir, work]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

const sandbox = (args: string[], env: Record<string, string> = { SCANBASE_OPERATOR_TOKEN: OPERATOR_TOKEN }) =>
  scanbase(['--base-url', world.url, 'sandbox', ...args], { configDir, env });
const ok = (r: Run) => {
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  return r;
};
const json = async (args: string[]) => JSON.parse(ok(await sandbox([...args, '--json'])).stdout);
const projectNames = async () => {
  const res = await fetch(`${world.url}/api/2/accounts/${world.accountId}/projects`, { headers: { authorization: `Bearer ${await world.ownerToken()}` } });
  return ((await res.json()) as { name: string }[]).map((p) => p.name).sort();
};

test('snapshots from the command line: save, download, restore by name and from the file, list, delete', async () => {
  const saved = await json(['snapshot', 'save', 'base']);
  assert.equal(saved.name, 'base');
  const before = await projectNames();
  const created = await fetch(`${world.url}/api/2/accounts/${world.accountId}/projects`, {
    method: 'POST', headers: { authorization: `Bearer ${await world.ownerToken()}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'After the save', subscriptionId: (await projectNamesSub()) }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  assert.deepEqual(await projectNames(), [...before, 'After the save'].sort());

  const file = path.join(work, 'base.sbsnap');
  const down = await json(['snapshot', 'download', 'base', '-o', file]);
  assert.equal(down.bytes, saved.bytes);
  assert.equal(fs.statSync(file).size, saved.bytes);

  ok(await sandbox(['snapshot', 'restore', 'base']));
  assert.deepEqual(await projectNames(), before);

  const restored = await json(['snapshot', 'restore', 'shared', '--file', file]);
  assert.equal(restored.name, 'shared');
  const listed = ok(await sandbox(['snapshot', 'list'])).stdout;
  assert.match(listed, /base/);
  assert.match(listed, /shared/);
  ok(await sandbox(['snapshot', 'delete', 'shared']));
  const missing = await sandbox(['snapshot', 'show', 'shared']);
  assert.equal(missing.code, 5, missing.stderr);
  assert.match(missing.stderr, /snapshot-not-found/);
});

/** The subscription the world's projects use (any of the account's). */
async function projectNamesSub(): Promise<string> {
  const res = await fetch(`${world.url}/api/2/accounts/${world.accountId}/subscriptions`, { headers: { authorization: `Bearer ${await world.ownerToken()}` } });
  return ((await res.json()) as { id: string; isActive?: boolean }[])[0]!.id;
}

test('a fault rule added from the command line: the SDK waits the 429\'s Retry-After and succeeds; the journal shows it', async () => {
  const rule = await json(['faults', 'add', JSON.stringify({ match: { operationId: 'getProjects' }, effect: { kind: 'throttle', retryAfterSeconds: 1 }, count: 1 })]);
  assert.equal(rule.effect.kind, 'throttle');
  const client = createScanbaseClient({ baseUrl: world.url, accessToken: await world.ownerToken() });
  const started = Date.now();
  const res = await client.fetch(`/api/2/accounts/${world.accountId}/projects`);
  assert.equal(res.status, 200);
  assert.ok(Date.now() - started >= 950, 'the client waited the Retry-After');
  const listed = await json(['faults', 'list']);
  assert.equal(listed[0].injected, 1);

  const refused = await json(['journal', '--status', '429', '--operation', 'getProjects']);
  assert.equal(refused.length, 1);
  assert.deepEqual(refused[0].fault, { ruleId: rule.id, kind: 'throttle' });
  assert.equal(refused[0].refusal.rule, 'limit');
  const text = ok(await sandbox(['journal', '--status', '429'])).stdout;
  assert.match(text, /429 GET \/api\/2\/accounts\/[^ ]+\/projects \(getProjects\).*\[fault throttle /);

  const bad = await sandbox(['faults', 'add', '{"effect":{"kind":"status","status":418}}']);
  assert.equal(bad.code, 6, bad.stderr);
  assert.match(bad.stderr, /invalid-input.*body\.effect\.status/);
  assert.deepEqual(await json(['faults', 'clear']), { deleted: 1 });
});

test('journal --follow prints each new request as it is answered', async () => {
  let stop: () => void = () => {};
  const running = scanbase(['--base-url', world.url, 'sandbox', 'journal', '--follow', '--operation', 'isLogged'], {
    configDir, env: { SCANBASE_OPERATOR_TOKEN: OPERATOR_TOKEN },
    onSpawn: (c) => (stop = () => c.kill('SIGINT')),
  });
  const token = await world.ownerToken();
  await new Promise((r) => setTimeout(r, 2500)); // the command started and waits on the journal
  const res = await fetch(`${world.url}/api/isLogged`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  await new Promise((r) => setTimeout(r, 1500));
  stop();
  const r = await running;
  assert.match(r.stdout, /200 GET \/api\/isLogged \(isLogged\) user /, r.stderr);
  assert.ok(!r.stdout.includes(token), 'no token printed');
});

test('the clock moves back from the command line; the operator token is required', async () => {
  const now = await json(['clock']);
  const back = await json(['clock', '--advance', '-3600']);
  assert.equal(back.offsetSeconds, now.offsetSeconds - 3600);
  const set = await json(['clock', '--to', '2030-01-01T00:00:00Z']);
  assert.ok(Math.abs(Date.parse(set.now) - Date.parse('2030-01-01T00:00:00Z')) < 5000);
  const none = await sandbox(['snapshot', 'list'], { SCANBASE_OPERATOR_TOKEN: '' });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /operator token is required/);
  const wrong = await sandbox(['snapshot', 'list'], { SCANBASE_OPERATOR_TOKEN: 'wrong-operator-token-of-24-chars' });
  assert.equal(wrong.code, 3, wrong.stderr);
});
