// @engine-independent: the SDK's e2e files cover the data path on both engines.
// The scanbase command against a started service: login through the loopback redirect
// (the browser step done with the service tests' helper), whoami, upload (a second run
// finds the files there), download, errors as exit codes, logout.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { authorize, fetchTransport } from '../../../test/support/oauth-client.ts';
import { startSdkWorld, type SdkWorld } from '../../sdk/test/support/server.ts';

const MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/main.ts');
let world: SdkWorld;
let home: string;

before(async () => {
  world = await startSdkWorld();
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-cli-'));
});
after(async () => {
  await world?.stop();
  fs.rmSync(home, { recursive: true, force: true });
});

interface Run { code: number | null; stdout: string; stderr: string }

/** Runs the command; `onLine` sees its standard output line by line. */
function scanbase(args: string[], onLine?: (line: string) => void): Promise<Run> {
  const child = spawn(process.execPath, [MAIN, ...args], { env: { ...process.env, XDG_CONFIG_HOME: home, SCANBASE_SERVER: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    const before = stdout;
    stdout += d;
    if (onLine) for (const l of stdout.slice(before.lastIndexOf('\n') + 1).split('\n').slice(0, -1)) onLine(l);
  });
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

test('cli: login, whoami, upload (twice), download, a refusal as exit code 1, logout', async () => {
  let approved: Promise<void> | undefined;
  const login = await scanbase(['login', '--server', world.url], (line) => {
    if (!line.startsWith('http')) return;
    const redirectUri = new URL(line).searchParams.get('redirect_uri')!;
    approved = authorize(fetchTransport(world.url), { ...world.owner, redirectUri, authorize: line })
      .then((r) => fetch(r.location))
      .then((res) => void res.arrayBuffer());
  });
  await approved;
  assert.equal(login.code, 0, login.stderr);
  assert.match(login.stdout, /Signed in on http:\/\/127\.0\.0\.1:\d+ as urn:svc:user:/);

  const who = await scanbase(['whoami']);
  assert.equal(who.code, 0, who.stderr);
  assert.match(who.stdout, /^urn:svc:user:\S+ on http/);

  const files = ['a.dat', 'b.dat'].map((n) => {
    const f = path.join(home, n);
    fs.writeFileSync(f, crypto.randomBytes(300_000));
    return f;
  });
  const target = ['--account', world.accountId, '--project', world.projectId, '--zone', world.zoneId];
  const up = await scanbase(['upload', ...target, ...files]);
  assert.equal(up.code, 0, up.stderr);
  const lines = up.stdout.trim().split('\n').map((l) => l.split('\t'));
  assert.deepEqual(lines.map((l) => l[0]), ['uploaded', 'uploaded']);
  const again = await scanbase(['upload', ...target, ...files]);
  assert.deepEqual(again.stdout.trim().split('\n').map((l) => l.split('\t')[0]), ['already there', 'already there']);

  const out = path.join(home, 'copy.dat');
  const down = await scanbase(['download', '--account', world.accountId, '--project', world.projectId, '--blob', lines[0]![2]!, '--out', out]);
  assert.equal(down.code, 0, down.stderr);
  assert.deepEqual(fs.readFileSync(out), fs.readFileSync(files[0]!));

  const refused = await scanbase(['upload', '--account', world.accountId, '--project', crypto.randomUUID(), '--zone', world.zoneId, files[0]!]);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /not-found \(404\)/);

  const logout = await scanbase(['logout']);
  assert.equal(logout.code, 0, logout.stderr);
  const after = await scanbase(['whoami']);
  assert.equal(after.code, 2);
  assert.match(after.stderr, /not signed in/);
});

test('cli: usage errors exit 2', async () => {
  const r = await scanbase(['upload', '--account', 'x']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--project is required/);
  assert.equal((await scanbase(['frobnicate'])).code, 2);
});
