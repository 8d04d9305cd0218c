// @engine-independent: runs once, in the PGlite pass (see scripts/test.mjs).
// Shutdown as an operator meets it (docs/operations.md): SIGTERM sent to `npm start` (the
// npm process, as a container runtime or systemd sends it) reaches the server, which lets
// the request in flight finish, exits 0, leaves no process behind and releases DATA_DIR,
// so a second start on the same DATA_DIR works; a request that never ends is cut after
// SHUTDOWN_DRAIN_SECONDS. Start-up writes its facts, one line each, without secrets.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../support/server.ts';
import { MIGRATED_PGLITE_TEMPLATE } from '../support/database.ts';
import { ownChild, processState, stopChild } from '../support/children.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-ops-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** DATA_DIR holding the migrated cluster `npm test` wrote, when there is one (saves initdb). */
function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(tmp, 'data-'));
  if (MIGRATED_PGLITE_TEMPLATE) {
    fs.mkdirSync(path.join(dir, 'pglite'));
    const tar = spawnSync('tar', ['-xf', MIGRATED_PGLITE_TEMPLATE, '-C', path.join(dir, 'pglite')], { encoding: 'utf8' });
    assert.equal(tar.status, 0, tar.stderr);
  }
  return dir;
}

interface NpmServer {
  npm: ChildProcess;
  port: number;
  logs(): string;
  exited: Promise<number | null>;
}

/**
 * `npm start` in the repository, on a free port (or `port`); resolves once /readyz answers
 * 200. `group`: npm leads a process group of its own, as a service manager starts it.
 */
async function npmStart(dir: string, env: Record<string, string> = {}, opts: { port?: number; group?: boolean } = {}): Promise<NpmServer> {
  const port = opts.port ?? (await freePort());
  const npm = ownChild(
    spawn('npm', ['start', '--silent'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dir, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: opts.group ?? false,
    }),
    { group: opts.group ?? false },
  );
  let out = '';
  npm.stdout!.on('data', (d) => (out += d));
  npm.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (npm.exitCode !== null) throw new Error(`npm start exited (${npm.exitCode}):\n${out}`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { npm, port, logs: () => out, exited };
}

/** A request whose headers are sent and whose body is not (yet): in flight until `finish`. */
async function inFlight(port: number): Promise<{ finish(): void; answer: Promise<string> }> {
  const body = 'grant_type=refresh_token&refresh_token=not-a-token';
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(
    `POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n` +
      body.slice(0, 10),
  );
  let text = '';
  socket.on('data', (d) => (text += d));
  const answer = new Promise<string>((resolve) => socket.once('close', () => resolve(text)));
  socket.on('error', () => socket.destroy());
  return { finish: () => socket.write(body.slice(10)), answer };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The start-up lines (docs/operations.md): one each, no secret. */
function checkStartupLines(logs: string, secrets: string[]): void {
  const msgs = logs.split('\n').filter((l) => l.startsWith('{')).map((l) => String((JSON.parse(l) as { msg: unknown }).msg));
  for (const re of [
    /^scanbase \d+\.\d+\.\d+/, /^node v\d+/, /^database: pglite .*pglite$/, /^storage: local-disk .*blobs$/, /^data directory: /,
    /^public URL: http:\/\/localhost:\d+$/, /^operator API: on$/, /^sandbox: on$/, /^migrations: \d+ applied now, \d+ in total$/,
    /^seed: applied .*seed\.json \(1 users, 0 accounts\)$/, /^mail: SMTP off/,
  ]) {
    assert.equal(msgs.filter((m) => re.test(m)).length, 1, `${re}:\n${msgs.join('\n')}`);
  }
  for (const secret of secrets) assert.ok(!logs.includes(secret), 'no secret is logged');
}

test('shutdown rule: SIGTERM to the npm process drains the request in flight, exits 0, leaves no process and no lock; a second start on the same DATA_DIR works; start-up log lines', async () => {
  const dir = dataDir();
  const seedFile = path.join(tmp, 'seed.json');
  fs.writeFileSync(seedFile, JSON.stringify({ users: [{ email: 'olivia@acme.test', password: 'olivia-password-1' }] }));
  const token = 'ops-operator-token-of-24-chars!';
  const first = await npmStart(dir, { OPERATOR_TOKEN: token, SEED_FILE: seedFile, SANDBOX: '1' });
  checkStartupLines(first.logs(), [token, 'olivia-password-1']);
  const lock = path.join(dir, 'pglite.lock');
  const serverPid = Number(fs.readFileSync(lock, 'utf8'));
  assert.ok(serverPid > 0 && alive(serverPid));

  const req = await inFlight(first.port);
  await new Promise((r) => setTimeout(r, 200)); // the server has the headers
  first.npm.kill('SIGTERM'); // to npm, not to the server
  // Draining: soon no new connection is accepted; the one in flight is still served.
  const deadline = Date.now() + 10_000;
  while (await fetch(`http://127.0.0.1:${first.port}/livez`).then(() => true, () => false)) {
    assert.ok(Date.now() < deadline, `still accepting 10 s after SIGTERM:\n${first.logs()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  req.finish();
  const answer = await req.answer;
  assert.match(answer, /^HTTP\/1\.1 (400|401) /, `the in-flight request got its answer:\n${answer}\n${first.logs()}`);
  assert.equal(await first.exited, 0, first.logs());
  assert.equal(alive(serverPid), false, 'the server process is gone');
  assert.equal(fs.existsSync(lock), false, 'DATA_DIR is unlocked');
  assert.match(first.logs(), /shutting down: not ready, draining requests/);
  assert.match(first.logs(), /"msg":"stopped"/);

  // The same DATA_DIR again, with a request that never ends and a 1-second drain.
  const second = await npmStart(dir, { SHUTDOWN_DRAIN_SECONDS: '1' });
  const stuck = await inFlight(second.port);
  await new Promise((r) => setTimeout(r, 200));
  const t0 = Date.now();
  second.npm.kill('SIGTERM');
  assert.equal(await second.exited, 0, second.logs());
  await stuck.answer; // cut
  assert.ok(Date.now() - t0 < 15_000, 'the drain time bounds the stop');
  assert.match(second.logs(), /drain time over/);
  assert.equal(fs.existsSync(lock), false);
});

test('crash rule: after kill -9, npm start on the same DATA_DIR starts at once, even while the killed server is an unreaped zombie; a live second instance is refused, naming the first', async () => {
  const dir = dataDir();
  const lock = path.join(dir, 'pglite.lock');
  const first = await npmStart(dir, {}, { group: true });
  const firstPid = Number(fs.readFileSync(lock, 'utf8'));
  assert.ok(firstPid > 0 && alive(firstPid));

  // While the first runs, a second start on its DATA_DIR is refused with the first's pid.
  const refused = await npmStart(dir).then(
    () => assert.fail('a second instance started on the same DATA_DIR'),
    (e: Error) => e.message,
  );
  assert.match(refused, new RegExp(`The database directory .*pglite is in use by process ${firstPid}; stop it or choose another DATA_DIR`), refused);

  // kill -9 of the server while its parent (npm, stopped) cannot reap it: a zombie that
  // still answers kill(pid, 0), named by the lock file.
  process.kill(first.npm.pid!, 'SIGSTOP');
  process.kill(firstPid, 'SIGKILL');
  for (const deadline = Date.now() + 10_000; processState(firstPid) !== 'Z'; ) {
    assert.ok(Date.now() < deadline, `the killed server is ${processState(firstPid)}, not a zombie`);
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.ok(alive(firstPid));
  assert.equal(fs.readFileSync(lock, 'utf8'), String(firstPid));
  const second = await npmStart(dir, {}, { group: true });
  assert.equal(processState(firstPid), 'Z', 'the killed server was still unreaped when the restart took the lock');
  const secondPid = Number(fs.readFileSync(lock, 'utf8'));
  assert.ok(secondPid !== firstPid && alive(secondPid), 'the lock names the new server');
  process.kill(-first.npm.pid!, 'SIGKILL');

  // kill -9 of npm start's whole process group, as an operator would, and a restart in the same breath.
  const port = await freePort();
  process.kill(-second.npm.pid!, 'SIGKILL');
  const third = await npmStart(dir, {}, { port, group: true });
  assert.equal((await fetch(`http://127.0.0.1:${port}/readyz`)).status, 200, third.logs());
  assert.notEqual(Number(fs.readFileSync(lock, 'utf8')), secondPid);
  await stopChild(third.npm, { graceMs: 30_000 });
  assert.equal(await third.exited, 0, third.logs());
  assert.equal(fs.existsSync(lock), false, 'a clean stop removes the lock file');
});
