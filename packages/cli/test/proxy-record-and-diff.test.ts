// The recording proxy and its diff (issue 32 item 5, docs/sandbox.md "The recording
// proxy"), end to end with real processes: a Scanbase node plays "the real service" behind a
// small wrapper that plants one difference (the first single-project read answers its name
// as a number) and notes every secret and e-mail that crosses it; `scanbase proxy` records a
// 50-request session of the SDK (sign-in state from the operator API, a token refresh, API 1
// and API 2 reads and writes, refusals, uploads to signed URLs and a download through one,
// all through the proxy); the session holds no token, signature or e-mail that crossed the
// wire; `scanbase proxy diff` replays it against a second, fresh Scanbase node (tokens from
// its operator API, e-mails put back from the proxy's key file, ids mapped) and finds
// exactly the planted difference, in JSON and in text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import {
  MemoryTokenStore, TokenManager, createScanbaseClient, downloadFile, toStored, uploadFiles, type ScanbaseClient,
} from '@scanbase/sdk/node';
import { freePort, startServer, stopAndRemove, type RunningServer } from '../../../test/support/server.ts';
import { TEST_DATABASE_URL, freshPostgresUrl } from '../../../test/support/database.ts';
import { operatorCall } from '../../../test/support/e2e-http.ts';
import { ACCOUNT_ID, PROJECT_SEED, SPARE, SUB_A, emailOf } from '../../../test/support/projects.ts';
import { scanbase, type Run } from './support/run.ts';

const OPERATOR = 'proxy-e2e-operator-token-of-24+';
const SESSION_REQUESTS = 50;

let work: string;
let configDir: string;
let real: RunningServer;
let other: RunningServer;
let wrapper: http.Server;
const drops: (() => Promise<void>)[] = [];
/** What crossed the wrapper: requests seen, and every secret and e-mail in them or in their answers. */
const seen = { requests: 0, secrets: new Set<string>(), planted: 0 };

/** A Scanbase node on a fresh database (PostgreSQL when TEST_DATABASE_URL is set), seeded with the project world. */
async function node(env: Record<string, string> = {}): Promise<RunningServer> {
  const db = TEST_DATABASE_URL ? await freshPostgresUrl(TEST_DATABASE_URL) : undefined;
  const server = await startServer({ OPERATOR_TOKEN: OPERATOR, ...(db ? { DATABASE_URL: db.url } : {}), ...env });
  drops.push(() => stopAndRemove(server, db));
  const direct = `http://127.0.0.1:${server.port}`;
  await operatorCall(direct, OPERATOR, 'POST', '/seed', PROJECT_SEED);
  return server;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;

function noteSecrets(text: string): void {
  for (const m of text.matchAll(/"(?:access_token|refresh_token)"\s*:\s*"([^"]+)"/g)) seen.secrets.add(m[1]!);
  for (const m of text.matchAll(/[?&](?:sig|X-Amz-Signature)=([^&"\s]+)/g)) seen.secrets.add(decodeURIComponent(m[1]!));
  for (const m of text.matchAll(EMAIL)) seen.secrets.add(m[0]);
}

/**
 * "The real service": forwards to the node, plants one difference (the first GET of one
 * project answers `name` as a number) and notes the secrets crossing it.
 */
function startWrapper(port: number, to: string): Promise<http.Server> {
  const server = http.createServer(async (req, res) => {
    seen.requests++;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const auth = req.headers.authorization;
    if (auth) seen.secrets.add(auth.replace(/^Bearer\s+/i, ''));
    noteSecrets(decodeURIComponent(req.url ?? ''));
    if (!/octet-stream/.test(req.headers['content-type'] ?? '')) noteSecrets(body.toString('utf8'));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !['host', 'connection', 'content-length', 'transfer-encoding'].includes(k)) headers[k] = v;
    const answer = await fetch(`${to}${req.url}`, { method: req.method, headers, body: body.length ? body : undefined, redirect: 'manual' });
    let out: Buffer = Buffer.from(await answer.arrayBuffer());
    const type = answer.headers.get('content-type') ?? '';
    if (/json/.test(type)) {
      noteSecrets(out.toString('utf8'));
      if (req.method === 'GET' && /^\/api\/2\/accounts\/[^/]+\/projects\/[^/?]+$/.test(req.url ?? '') && answer.status === 200 && seen.planted++ === 0) {
        const project = JSON.parse(out.toString('utf8')) as { name: unknown };
        project.name = 42;
        out = Buffer.from(JSON.stringify(project));
      }
    }
    const location = answer.headers.get('location');
    if (location) noteSecrets(location);
    const back: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k)) back[k] = v;
    });
    res.writeHead(answer.status, { ...back, 'content-length': String(out.length) });
    res.end(out);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

before(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-proxy-'));
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-proxy-config-'));
  const wrapperPort = await freePort();
  // The real service's public address is the wrapper's: its signed URLs point at the target.
  real = await node({ PUBLIC_URL: `http://127.0.0.1:${wrapperPort}` });
  wrapper = await startWrapper(wrapperPort, `http://127.0.0.1:${real.port}`);
  other = await node();
});

after(async () => {
  await new Promise<void>((resolve) => (wrapper ? wrapper.close(() => resolve()) : resolve()));
  for (const drop of drops.reverse()) await drop();
  for (const d of [work, configDir]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

/** `scanbase proxy …` started; answers its address, the child and its end. */
async function startProxy(args: string[]): Promise<{ url: string; child: ChildProcess; ended: Promise<Run> }> {
  let child!: ChildProcess;
  let announce!: (url: string) => void;
  const listening = new Promise<string>((resolve) => (announce = resolve));
  const ended = scanbase(['proxy', ...args], {
    configDir,
    onSpawn: (c) => (child = c),
    onStderr: (all) => {
      const url = /listening on (http:\/\/\S+),/.exec(all)?.[1];
      if (url) announce(url);
    },
  });
  const url = await Promise.race([listening, ended.then((r) => Promise.reject(new Error(`proxy exited ${r.code}: ${r.stderr}`)))]);
  return { url, child, ended };
}

/** The SDK session: 50 requests of every kind through the proxy. */
async function session(client: ScanbaseClient, manager: TokenManager, files: string[], downloads: string): Promise<void> {
  const A = `/api/2/accounts/${ACCOUNT_ID}`;
  const json = async (p: string, init?: RequestInit) => {
    const res = await client.fetch(p, init);
    const text = await res.text();
    return text ? JSON.parse(text) : null;
  };
  const send = (method: string, body: unknown): RequestInit => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const refused = async (p: string, init?: RequestInit) => {
    await assert.rejects(client.fetch(p, init), (e: { status?: number }) => (e.status ?? 0) >= 400);
  };
  await client.api1.GET('/api/isLogged');
  await json('/api/2/accounts');
  await json(A);
  await json(`${A}/subscriptions`);
  await json(`${A}/users`);
  const project = await json(`${A}/projects`, send('POST', { name: 'Recorded plant', subscriptionId: SUB_A }));
  const P = `${A}/projects/${project.id}`;
  await json(P); // the planted answer
  await json(`${A}/projects`);
  await json(P, send('PATCH', { description: 'Recorded through the proxy' }));
  const zones = [];
  for (const name of ['North', 'South', 'East']) zones.push(await json(`${P}/workzones`, send('POST', { name, parentWorkzoneId: project.rootWorkzoneId })));
  await json(`${P}/workzones`);
  await json(`${P}/workzones/${zones[0].id}`, send('PUT', { name: 'North wing' }));
  await json(`${P}/workzones/${zones[1].id}`);
  const list = await json(`${P}/tag-lists`, send('POST', { workzoneId: zones[0].id, tagListType: '3d', name: 'Valves' }));
  await json(`${P}/tag-lists/${list.id}/tags/bulk`, send('POST', { create: Array.from({ length: 20 }, (_, i) => ({ data: { id: `V-${i}`, name: `Valve ${i}` } })) }));
  await json(`${P}/tag-lists/${list.id}/tags`);
  await json(`${P}/tag-lists`);
  const uploaded = await uploadFiles(client, { accountId: ACCOUNT_ID, projectId: project.id, workzoneId: zones[0].id, files });
  await json(`${P}/files`);
  await json(`${P}/files/${uploaded[0]!.id}`);
  await downloadFile(client, { accountId: ACCOUNT_ID, projectId: project.id, blobName: uploaded[0]!.blobName, dest: path.join(downloads, 'first.e57') });
  await json(`${P}/members`);
  // A refresh: the next requests carry the new access token.
  await manager.replace(await manager.accessToken());
  await json(`${P}/workzones`);
  await client.api1.GET('/api/isLogged');
  await json(`/api/accounts/${ACCOUNT_ID}/projects`);
  await refused(`${A}/projects/urn:svc:project:00000000-0000-4000-8000-000000000000`);
  await refused(`${A}/projects`, send('POST', { name: '', subscriptionId: SUB_A }));
  await refused(`${P}/workzones/${zones[2].id}`, send('PUT', { name: 7 }));
  await json(`${P}/workzones/${zones[2].id}`, { method: 'DELETE' });
  await json(`${P}/tag-lists/${list.id}`, { method: 'DELETE' });
  await refused(`${P}/tag-lists/${list.id}`);
  while (seen.requests < SESSION_REQUESTS) await json(`${P}/workzones`);
}

test('the proxy records a 50-request SDK session redacted, and its diff against another Scanbase finds exactly the planted difference', async () => {
  const dir = path.join(work, 'session');
  const keys = path.join(work, 'keys.json');
  const proxy = await startProxy(['--target', `http://127.0.0.1:${wrapper.address() && (wrapper.address() as { port: number }).port}`, '--record', dir, '--port', '0', '--keys', keys]);

  // Signed in as the owner (a token pair from the operator API, as a stored profile would be).
  const pair = await operatorCall(`http://127.0.0.1:${real.port}`, OPERATOR, 'POST', '/tokens', { email: emailOf('projectOwner') });
  const manager = new TokenManager(proxy.url, new MemoryTokenStore(toStored(proxy.url, pair)));
  const client = createScanbaseClient({ baseUrl: proxy.url, tokens: manager });
  const files = ['scan-a.e57', 'notes.txt'].map((name, i) => {
    const p = path.join(work, name);
    fs.writeFileSync(p, Buffer.alloc(10_000 + i * 777, i + 1));
    return p;
  });
  fs.mkdirSync(path.join(work, 'downloads'));
  await session(client, manager, files, path.join(work, 'downloads'));
  assert.equal(seen.requests, SESSION_REQUESTS, 'every request of the session went through the proxy to the service');
  assert.deepEqual(fs.readFileSync(path.join(work, 'downloads', 'first.e57')), fs.readFileSync(files[0]!), 'the download through the proxy is whole');

  proxy.child.kill('SIGINT');
  const ended = await proxy.ended;
  assert.equal(ended.code, 0, ended.stderr);
  assert.match(ended.stderr, /50 exchanges recorded/);

  // The session: 50 exchanges, nothing secret or personal in any of its files.
  const lines = fs.readFileSync(path.join(dir, 'exchanges.ndjson'), 'utf8').trim().split('\n');
  assert.equal(lines.length, SESSION_REQUESTS);
  const everything = fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .map((f) => fs.readFileSync(path.join(dir, f), 'latin1')).join('\n');
  assert.ok(seen.secrets.size > 10, `secrets crossed the wire (${seen.secrets.size})`);
  for (const s of seen.secrets) assert.ok(!everything.includes(s), `the session holds ${s.slice(0, 12)}…`);
  // Names and companies: no recorded value is one. (The seed's first names are mostly role words,
  // "owner", "projectManager", which the API also sends as values: the spare users' are names.)
  const values: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') values.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  lines.forEach((l) => walk(JSON.parse(l)));
  for (const u of PROJECT_SEED.users) {
    assert.ok(!everything.includes(u.email), `the session holds ${u.email}`);
    if ((SPARE as readonly string[]).includes(u.firstName)) assert.ok(!values.includes(u.firstName), `the session holds the name ${u.firstName}`);
    assert.ok(!values.some((v) => v.includes(`${u.firstName} ${u.lastName}`)), `the session holds the name ${u.firstName} ${u.lastName}`);
  }
  assert.ok(!values.includes('Proj Inc'), 'the session holds a company');
  assert.ok(values.some((v) => /^Redacted (Name|Company) \d+$/.test(v)), 'names and companies are placeholders');
  assert.match(everything, /person-\d+@redacted\.invalid/);
  assert.match(everything, /Bearer redacted-token-\d+/);
  assert.match(everything, /sig=redacted-signature-\d+/);
  // The same value, the same placeholder: the owner's first token is the one of several requests.
  const firstAuth = (JSON.parse(lines[0]!) as { request: { headers: { authorization: string } } }).request.headers.authorization;
  assert.ok(lines.filter((l) => l.includes(firstAuth)).length > 10, 'one token, one placeholder throughout');
  const keyFile = JSON.parse(fs.readFileSync(keys, 'utf8')) as Record<string, string>;
  assert.ok(Object.values(keyFile).includes(emailOf('projectOwner')), 'the key file (outside the session) holds the owner\'s e-mail');

  // The diff against a fresh Scanbase: exactly the planted difference.
  const diff = await scanbase(['proxy', 'diff', dir, '--against', other.url, '--operator-token', OPERATOR, '--map', keys, '--json'], { configDir });
  assert.equal(diff.code, 1, `exit 1 when the answers differ: ${diff.stderr}`);
  const report = JSON.parse(diff.stdout) as { summary: { requests: number; alike: number; different: number; skipped: number }; exchanges: { seq: number; method: string; path: string; differences: unknown[] }[] };
  const differing = report.exchanges.filter((x) => x.differences.length);
  assert.deepEqual(differing.map((x) => ({ method: x.method, differences: x.differences })), [
    { method: 'GET', differences: [{ kind: 'type', path: '$.name', recorded: 'number', replayed: 'string' }] },
  ], JSON.stringify(differing, null, 1).slice(0, 3000));
  assert.match(differing[0]!.path, /^\/api\/2\/accounts\/[^/]+\/projects\/[^/]+$/);
  assert.deepEqual(report.summary, { requests: SESSION_REQUESTS, alike: SESSION_REQUESTS - 1, different: 1, skipped: 0 });

  const text = await scanbase(['proxy', 'diff', dir, '--against', other.url, '--operator-token', OPERATOR, '--map', keys], { configDir });
  assert.equal(text.code, 1, text.stderr);
  assert.match(text.stdout, /49 answered alike, 1 differently, 0 skipped/);
  assert.match(text.stdout, /type {8}\$\.name: recorded number, replayed string/);
});

test('the proxy and its diff refuse what they cannot use, with a usage error', async () => {
  const missing = await scanbase(['proxy', '--record', path.join(work, 'x')], { configDir });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /--target is required/);
  const notASession = await scanbase(['proxy', 'diff', work, '--against', other.url], { configDir });
  assert.equal(notASession.code, 2);
  assert.match(notASession.stderr, /holds no recorded session/);
  const used = await scanbase(['proxy', '--target', other.url, '--record', path.join(work, 'session'), '--port', '0'], { configDir });
  assert.equal(used.code, 2);
  assert.match(used.stderr, /already holds a recorded session/);
});
