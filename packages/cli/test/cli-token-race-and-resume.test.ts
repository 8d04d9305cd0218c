// @engine-independent: the refresh and upload data paths are covered on both engines by the SDK's and the service's tests.
// Two CLI-level proofs on one started service:
// - the token race: 20 processes running `scanbase token` and a request with it (and 20
//   `scanbase whoami`) at once on one profile whose access token expired: all succeed,
//   one refresh per expiry, no refresh token spent twice (the service's metrics say so);
// - resume: `scanbase upload` of 20 files killed with SIGKILL part way, the same command
//   again: every file registered exactly once, and after the sweeper's pass (service
//   clock past UPLOAD_TTL, restart) no object is left that no file names.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { startSdkWorld, type SdkWorld } from '../../sdk/test/support/server.ts';
import { NODE_ARGS, scanbase, type Run } from './support/run.ts';

let world: SdkWorld;
let configDir: string;
let work: string;

before(async () => {
  world = await startSdkWorld({ UPLOAD_TTL: '120', UPLOAD_URL_TTL: '120' });
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-cli-config-'));
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-cli-work-'));
  const pair = await world.operator('POST', '/tokens', { email: world.owner.email });
  const login = await scanbase(['login', '--with-token', '--base-url', world.url], { configDir, stdin: JSON.stringify(pair) });
  assert.equal(login.code, 0, login.stderr);
});
after(async () => {
  await world?.stop();
  for (const d of [configDir, work]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

const tokenAnswers = (status: string) => world.metric('scanbase_http_requests_total', { method: 'POST', route: '/oauth/token', status });
const profileFile = () => path.join(configDir, 'profiles', 'default.json');

/** Runs `n` copies of a shell command at once; answers what each printed, and its exit code. */
function all(n: number, command: string): Promise<Run[]> {
  return Promise.all(Array.from({ length: n }, () => new Promise<Run>((resolve) => {
    const child = spawn('sh', ['-c', command], { env: { ...process.env, SCANBASE_CONFIG_DIR: configDir, SCANBASE_PROFILE: '', SCANBASE_BASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  })));
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const scanbaseSh = [process.execPath, ...NODE_ARGS].map(q).join(' ');

test('token race: 20 `scanbase token` + a request each, then 20 `scanbase whoami`, on one expired profile: all succeed, one refresh per expiry, no refresh token spent twice', async () => {
  const lostBefore = await world.metric('scanbase_oauth_refresh_lost_total', {});
  const started = JSON.parse(fs.readFileSync(profileFile(), 'utf8'));

  // Expiry 1: the profile's record says expired (and the service's clock agrees): each
  // `token` goes for the refresh before printing; the request uses what it printed.
  await world.operator('POST', '/clock', { advanceSeconds: 3 * 3600 + 60 });
  fs.writeFileSync(profileFile(), JSON.stringify({ ...started, expiresAt: Date.now() - 1000 }));
  let ok = await tokenAnswers('200');
  let refused = await tokenAnswers('401');
  const withRequest = `T=$(${scanbaseSh} token) && curl -s -o /dev/null -w '%{http_code}' -H "authorization: Bearer $T" ${q(`${world.url}/api/isLogged`)}`;
  const runs = await all(20, withRequest);
  for (const r of runs) assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(runs.map((r) => r.stdout), Array(20).fill('200'), 'every request with the printed token was accepted');
  assert.equal((await tokenAnswers('200')) - ok, 1, 'the token endpoint issued one pair');
  assert.equal((await tokenAnswers('401')) - refused, 0, 'no refresh token refused (none spent twice)');

  // Expiry 2: only the service's clock passed the expiry: each `whoami` gets a 401 and refreshes once for all.
  await world.operator('POST', '/clock', { advanceSeconds: 3 * 3600 + 60 });
  ok = await tokenAnswers('200');
  refused = await tokenAnswers('401');
  const who = await all(20, `${scanbaseSh} whoami --json`);
  for (const r of who) assert.equal(r.code, 0, r.stderr);
  assert.ok(who.every((r) => JSON.parse(r.stdout).userId === started.userId));
  assert.equal((await tokenAnswers('200')) - ok, 1);
  assert.equal((await tokenAnswers('401')) - refused, 0);
  assert.equal(await world.metric('scanbase_oauth_refresh_lost_total', {}), lostBefore, 'no refresh lost a race at the service');
  assert.notEqual(JSON.parse(fs.readFileSync(profileFile(), 'utf8')).refreshToken, started.refreshToken);
});

const md5 = (f: string) => crypto.createHash('md5').update(fs.readFileSync(f)).digest('hex');

test('resume: `scanbase upload` of 20 files killed with SIGKILL, the same command again: each file registered once; after the sweeper no orphan object', async () => {
  const zone = world.zoneId;
  const files = Array.from({ length: 20 }, (_, i) => {
    const f = path.join(work, `part-${String(i).padStart(2, '0')}.dat`);
    fs.writeFileSync(f, crypto.randomBytes(400_000 + i * 25_000));
    return f;
  });
  const args = ['upload', '--account', world.accountId, '--project', world.projectId, '--zone', zone, '--concurrency', '2', ...files];
  const journals = path.join(configDir, 'uploads');
  const registered = () => {
    for (const j of fs.existsSync(journals) ? fs.readdirSync(journals).filter((f) => f.endsWith('.json')) : []) {
      try {
        return Object.values(JSON.parse(fs.readFileSync(path.join(journals, j), 'utf8')).files as Record<string, { id?: string }>).filter((e) => e.id).length;
      } catch {
        return 0; // read between the rename's two steps on some file systems: try again
      }
    }
    return 0;
  };
  let timer: NodeJS.Timeout | undefined;
  const killed = await scanbase(args, {
    configDir,
    onSpawn: (child) => {
      timer = setInterval(() => registered() >= 5 && child.kill('SIGKILL'), 10);
    },
  });
  clearInterval(timer);
  assert.equal(killed.signal, 'SIGKILL', `the upload finished before it was killed: ${killed.stdout}`);
  const before = (await world.filesOf(world.projectId, zone)).length;
  assert.ok(before >= 5 && before < 20, `${before} files registered before the kill`);

  const again = await scanbase([...args, '--json'], { configDir });
  assert.equal(again.code, 0, again.stderr);
  const out = JSON.parse(again.stdout) as { status: string; blobName: string }[];
  // The journal's registered files are skipped; one registered at the service just before the
  // kill but not yet in the journal is registered again, idempotently (same blob, same row).
  assert.ok(out.filter((f) => f.status === 'already there').length >= 5);
  const rows = await world.filesOf(world.projectId, zone);
  assert.equal(rows.length, 20, 'no duplicate rows');
  assert.deepEqual(rows.map((r) => `${r.name}:${r.md5}`).sort(), files.map((f) => `${path.basename(f, '.dat')}:${md5(f)}`).sort());

  // The sweeper: past UPLOAD_TTL on the service's clock, a restart runs a housekeeping pass.
  await world.operator('POST', '/clock', { advanceSeconds: 180 });
  await world.restart();
  const objects = path.join(world.server.dataDir, 'blobs', world.projectId.slice(world.projectId.lastIndexOf(':') + 1));
  const deadline = Date.now() + 20_000;
  const onDisk = () => fs.readdirSync(objects).filter((f) => !f.startsWith('.')).sort();
  while (onDisk().length > 20 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(onDisk(), rows.map((r) => r.blobName).sort(), 'every object is a registered file, and none is an orphan');
  assert.equal((await world.filesOf(world.projectId, zone)).length, 20, 'the sweeper left registered files alone');
});
