// Sign-in through the loopback redirect (the browser step done with the service tests'
// cookie-jar helper), the file token store, logout, and the token race: 20 processes on
// one profile whose access token expired all succeed, with exactly one refresh per
// expiry and no refresh token spent twice (counted with the service's metrics).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { authorize, fetchTransport } from '../../../test/support/oauth-client.ts';
import { FileTokenStore, TokenManager, createScanbaseClient, signInWithLoopback, ScanbaseError, refreshTokens, type StoredTokens } from '../src/node/index.ts';
import { startSdkWorld, type SdkWorld } from './support/server.ts';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/token-race-child.ts');
let world: SdkWorld;
let dir: string;

before(async () => {
  world = await startSdkWorld();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-profiles-'));
});
after(async () => {
  await world?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The loopback sign-in, with the approval done as a browser would: sign in, Allow, follow the redirect. */
async function signIn(): Promise<StoredTokens> {
  return signInWithLoopback({
    baseUrl: world.url,
    open: async (url) => {
      const redirectUri = new URL(url).searchParams.get('redirect_uri')!;
      assert.match(redirectUri, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const r = await authorize(fetchTransport(world.url), { ...world.owner, redirectUri, authorize: url });
      // The browser follows the 303 to the loopback listener (not awaited: it answers once the code is taken).
      void fetch(r.location).then((res) => res.arrayBuffer());
    },
  });
}

const tokenAnswers = (status: string) => world.metric('scanbase_http_requests_total', { method: 'POST', route: '/oauth/token', status });

test('sign-in: the loopback redirect brings a code that is exchanged with the PKCE verifier; the file store keeps it 0600', async () => {
  const tokens = await signIn();
  assert.match(tokens.userId, /^urn:svc:user:/);
  const store = FileTokenStore.forProfile(world.url, tokens.userId, { dir });
  await store.write(tokens);
  assert.equal(fs.statSync(store.file).mode & 0o777, 0o600);
  assert.ok(store.file.startsWith(path.join(dir, 'profiles')));
  const client = createScanbaseClient({ baseUrl: world.url, tokens: new TokenManager(world.url, store) });
  const { data } = await client.api2.GET('/api/2/values/permissions');
  assert.ok(Array.isArray(data) && data.length > 0);
});

test('logout revokes the refresh token at the service and empties the store', async () => {
  const store = new FileTokenStore(path.join(dir, 'logout.json'));
  await store.write(await signIn());
  const { refreshToken } = (await store.read())!;
  await new TokenManager(world.url, store).logout();
  assert.equal(await store.read(), null);
  await assert.rejects(refreshTokens(world.url, refreshToken), (e: unknown) => e instanceof ScanbaseError && e.status === 401 && e.errorCode === 'invalid_grant');
});

/** Starts n children on the profile, lets them go at once, answers what each printed. */
async function race(profile: string, n: number): Promise<{ status: number; refreshes: number }[]> {
  const children = Array.from({ length: n }, () => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, world.url, profile], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const ready = new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => out.includes('ready\n') && resolve());
      child.once('exit', (code) => reject(new Error(`child exited ${code} before ready: ${err}`)));
    });
    // 'close', not 'exit': a process can exit before its stdout has been read to the end.
    const done = new Promise<string>((resolve, reject) =>
      child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`child exited ${code}: ${err}`)))));
    return { child, ready, done };
  });
  await Promise.all(children.map((c) => c.ready));
  for (const c of children) c.child.stdin.write('go\n');
  const outs = await Promise.all(children.map((c) => c.done));
  return outs.map((o) => JSON.parse(o.trim().split('\n').pop()!));
}

test('token race: 20 processes, one profile, expired access token: all succeed, one refresh per expiry, no refresh token spent twice', async () => {
  const profile = path.join(dir, 'race.json');
  await new FileTokenStore(profile).write(await signIn());
  const lostBefore = await world.metric('scanbase_oauth_refresh_lost_total', {});

  // Expiry 1: the service's clock passes the access token's expiry (the client's record
  // still says valid): every process gets a 401 and goes for the refresh.
  await world.operator('POST', '/clock', { advanceSeconds: 3 * 3600 + 60 });
  let okBefore = await tokenAnswers('200');
  let refusedBefore = await tokenAnswers('401');
  let results = await race(profile, 20);
  assert.deepEqual(results.map((r) => r.status), Array(20).fill(200));
  assert.equal(results.reduce((s, r) => s + r.refreshes, 0), 1, 'one process refreshed');
  assert.equal((await tokenAnswers('200')) - okBefore, 1, 'the token endpoint issued one pair');
  assert.equal((await tokenAnswers('401')) - refusedBefore, 0, 'no refresh token was refused (none spent twice)');

  // Expiry 2: this time the client's own record says expired too (refresh before sending).
  await world.operator('POST', '/clock', { advanceSeconds: 3 * 3600 + 60 });
  const stored = (await new FileTokenStore(profile).read())!;
  await new FileTokenStore(profile).write({ ...stored, expiresAt: Date.now() - 1000 });
  okBefore = await tokenAnswers('200');
  refusedBefore = await tokenAnswers('401');
  results = await race(profile, 20);
  assert.deepEqual(results.map((r) => r.status), Array(20).fill(200));
  assert.equal(results.reduce((s, r) => s + r.refreshes, 0), 1);
  assert.equal((await tokenAnswers('200')) - okBefore, 1);
  assert.equal((await tokenAnswers('401')) - refusedBefore, 0);
  assert.equal(await world.metric('scanbase_oauth_refresh_lost_total', {}), lostBefore, 'no refresh lost a race at the service');

  // The pair left in the profile is the live one: it refreshes.
  const last = (await new FileTokenStore(profile).read())!;
  assert.notEqual(last.refreshToken, stored.refreshToken);
  await refreshTokens(world.url, last.refreshToken);
});
