// npm run soak -- [--seconds 200]: the first hours of a real install, in minutes (issue 25;
// run by .ci/run beside the PostgreSQL pass). `npm start` on the README's defaults (embedded
// PGlite under a fresh DATA_DIR, local-disk storage, every task at its own period), with the
// sandbox clock and the operator API on so the clock can be moved past every period: the
// first account made by `npm run admin -- create-account` before the start, as the README
// says; then sign-ins through the browser pages (no operator shortcut), refreshes and API
// calls spread over the whole time, the clock moved forward by hours twice. Every call must
// answer within ANSWER_LIMIT_MS; the script prints what it did and exits 1 on any failure.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../test/support/server.ts';
import { fetchTransport, obtainTokens, refresh, type TokenPair, type Transport } from '../test/support/oauth-client.ts';

const ANSWER_LIMIT_MS = 20_000;
const OPERATOR_TOKEN = 'soak-operator-token-of-24-chars';
const EMAIL = 'soak@example.test';
const PASSWORD = 'soak password of the owner';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '200' } } });
const seconds = Number(values.seconds);
if (!Number.isInteger(seconds) || seconds < 10) {
  console.error('usage: npm run soak -- [--seconds N (at least 10)]');
  process.exit(2);
}

const root = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-soak-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: base, SANDBOX: '1', OPERATOR_TOKEN, LOG_LEVEL: 'warn' };
const failures: string[] = [];
const counts = { signIns: 0, refreshes: 0, calls: 0, clockMoves: 0 };
let longest = { ms: 0, what: '' };
const log = (line: string) => console.log(`soak: ${line}`);

// The first account, as the README's "First account without a seed file" does it.
const admin = (args: string[], input?: string) => {
  const r = spawnSync('npm', ['run', '--silent', 'admin', '--', ...args], { cwd: root, env, input, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm run admin -- ${args.join(' ')}: ${r.status}\n${r.stdout}${r.stderr}`);
};
admin(['create-account', '--name', 'Soak', '--owner', EMAIL, '--password-stdin'], PASSWORD);
admin(['create-subscription', '--account', 'Soak', '--name', 'Pro', '--scans', '500']);

const server = spawn('npm', ['start'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
// Stopped from outside (CI ending early): the server goes with it.
process.once('SIGTERM', () => {
  try {
    process.kill(-server.pid!, 'SIGKILL');
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(1);
  }
});
let output = '';
server.stdout!.on('data', (d) => (output += d));
server.stderr!.on('data', (d) => (output += d));

/** A call, timed; `what` names it in the report. */
async function timed<T>(what: string, call: () => Promise<T>): Promise<T | undefined> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ANSWER_LIMIT_MS} ms`)), ANSWER_LIMIT_MS);
  });
  try {
    const r = await Promise.race([call(), late]);
    const ms = performance.now() - started;
    if (ms > longest.ms) longest = { ms: Math.round(ms), what };
    return r;
  } catch (e) {
    failures.push(`${what}: ${(e as Error).message}`);
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  for (let i = 0; ; i++) {
    if (i > 120) throw new Error(`the server did not start:\n${output}`);
    const up = await fetch(`${base}/readyz`).then((r) => r.status === 200, () => false);
    if (up) break;
    await sleep(500);
  }
  const http: Transport = fetchTransport(base);
  const expect = async (what: string, status: number, call: () => Promise<{ status: number; body: string }>) => {
    counts.calls++;
    const r = await timed(what, call);
    if (r && r.status !== status) failures.push(`${what}: ${r.status} ${r.body.slice(0, 300)}`);
    return r;
  };
  let pair: TokenPair | undefined;
  const signIn = async () => {
    counts.signIns++;
    pair = await timed('sign-in through the browser pages', () => obtainTokens(http, EMAIL, PASSWORD));
  };
  const api = (what: string, method: 'GET' | 'POST', p: string, status: number, body?: unknown) =>
    expect(what, status, () => http({
      method, path: p,
      headers: { authorization: `Bearer ${pair!.access_token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }));
  const operator = (p: string, body: unknown) =>
    expect(`operator ${p}`, 200, () => http({
      method: 'POST', path: `/_operator${p}`, headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
    }));

  const started = Date.now();
  const until = started + seconds * 1000;
  const moves = [started + (seconds * 1000) / 3, started + (2 * seconds * 1000) / 3];
  await signIn();
  let lastSignIn = Date.now();
  while (Date.now() < until) {
    if (!pair) await signIn();
    if (!pair) break;
    if (moves.length && Date.now() >= moves[0]!) {
      moves.shift();
      // Past the access token's life (3 h) and every cache and task period.
      const moved = await operator('/clock', { advanceSeconds: 4 * 3600 });
      if (moved?.status === 200) counts.clockMoves++;
      await api('an access token past its expiry', 'GET', '/api/isLogged', 401);
    }
    if (Date.now() - lastSignIn > 45_000) {
      await signIn();
      lastSignIn = Date.now();
    } else {
      counts.refreshes++;
      const r = await expect('refresh', 200, () => refresh(http, pair!.refresh_token));
      if (r?.status === 200) pair = JSON.parse(r.body) as TokenPair;
    }
    if (!pair) continue;
    await api('isLogged', 'GET', '/api/isLogged', 200);
    const accounts = await api('accounts', 'GET', '/api/2/accounts', 200);
    const account = accounts?.status === 200 ? (JSON.parse(accounts.body) as { id: string }[])[0] : undefined;
    if (account) {
      const a = `/api/2/accounts/${encodeURIComponent(account.id)}`;
      await api('projects', 'GET', `${a}/projects`, 200);
      const subscriptions = await api('subscriptions', 'GET', `${a}/subscriptions`, 200);
      const subscription = subscriptions?.status === 200 ? (JSON.parse(subscriptions.body) as { id: string }[])[0] : undefined;
      if (subscription) await api('create a project', 'POST', `${a}/projects`, 201, { name: `Soak ${Date.now()}`, subscriptionId: subscription.id });
    }
    const ready = await expect('/readyz', 200, () => http({ method: 'GET', path: '/readyz' }));
    if (ready && ready.status === 200) log(`${Math.round((Date.now() - started) / 1000)} s: ok`);
    await sleep(3_000 + Math.random() * 4_000);
  }
}

let code = 0;
try {
  await main();
} catch (e) {
  failures.push(`the soak run failed: ${(e as Error).message}`);
}
if (server.exitCode === null) {
  process.kill(-server.pid!, 'SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
}
fs.rmSync(dataDir, { recursive: true, force: true });
log(`${counts.signIns} sign-ins, ${counts.refreshes} refreshes, ${counts.calls} calls, ${counts.clockMoves} clock moves over ${seconds} s; longest answer ${longest.ms} ms (${longest.what})`);
if (failures.length) {
  code = 1;
  for (const f of failures) console.error(`soak: FAILED ${f}`);
  console.error(output.slice(-4000));
}
process.exit(code);
