// @engine-independent: the data path is the SDK's and the service's, covered on both engines there.
// The scanbase command end to end against one started service: `login` (opening the browser
// through $BROWSER, and --no-browser) with the browser
// step in headless Chromium, whoami, project and zone creation, an upload of several files
// with a progress bar in a pseudo-terminal (none when piped), download with byte
// comparison, a tag export/import round trip (JSON and CSV), --with-token, token, exit
// codes by failure kind, completion, logout.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../../test/support/browser.ts';
import { SUB_A } from '../../../test/support/projects.ts';
import { startSdkWorld, type SdkWorld } from '../../sdk/test/support/server.ts';
import { ok, scanbase, scanbaseInTerminal, type Run } from './support/run.ts';

let world: SdkWorld;
let browser: Browser;
let configDir: string;
let work: string;

before(async () => {
  [world, browser] = await Promise.all([startSdkWorld(), launchBrowser()]);
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-cli-config-'));
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-cli-work-'));
});
after(async () => {
  await browser?.close();
  await world?.stop();
  for (const d of [configDir, work]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

const cli = (args: string[], o: { stdin?: string; profile?: string } = {}) =>
  scanbase(o.profile ? ['--profile', o.profile, ...args] : args, { configDir, stdin: o.stdin });
const json = async (args: string[], o?: { stdin?: string; profile?: string }) => JSON.parse(ok(await cli([...args, '--json'], o)).stdout);

/**
 * `scanbase login`, the browser step in Chromium (sign in, Allow). `opened: 'browser'`: the
 * command opens the address with $BROWSER (a script that hands it to the test); `'printed'`:
 * `--no-browser`, the address is read from standard error.
 */
async function loginInChromium(how: 'browser' | 'printed', profile = 'default'): Promise<Run> {
  const page = await (await browser.newContext()).newPage();
  const handedOver = path.join(work, `opened-${profile}.txt`);
  const opener = path.join(work, 'browser.sh');
  fs.writeFileSync(opener, `#!/bin/sh\nprintf '%s' "$1" > '${handedOver}.tmp' && mv '${handedOver}.tmp' '${handedOver}'\n`, { mode: 0o755 });
  let opened: Promise<void> | undefined;
  const approve = (url: string) => (async () => {
    await page.goto(url);
    await page.fill('#email', world.owner.email);
    await page.fill('#password', world.owner.password);
    await Promise.all([page.waitForURL(/\/oauth\/authorize\?/), page.click('button[type=submit]')]);
    await Promise.all([page.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/), page.getByRole('button', { name: 'Allow' }).click()]);
    assert.match((await page.textContent('body')) ?? '', /Signed in/);
  })();
  const args = ['--profile', profile, 'login', '--base-url', world.url, ...(how === 'printed' ? ['--no-browser'] : [])];
  const run = await scanbase(args, {
    configDir,
    env: { BROWSER: opener },
    onStderr: (all) => {
      if (opened) return;
      if (how === 'printed') {
        const url = /^Open this address in a browser to sign in:\n(http:\/\/\S+\/oauth\/authorize\?\S+)$/m.exec(all)?.[1];
        if (url) opened = approve(url);
      } else if (/^Opening the browser/m.test(all)) {
        opened = (async () => {
          while (!fs.existsSync(handedOver)) await new Promise((r) => setTimeout(r, 20));
          await approve(fs.readFileSync(handedOver, 'utf8'));
        })();
      }
    },
  });
  await opened;
  await page.context().close();
  return run;
}

test('cli e2e: browser login, whoami, project and zone, upload with a progress bar (terminal only), download, tag round trip, logout', async () => {
  const login = ok(await loginInChromium('browser'));
  assert.match(login.stderr, /^Opening the browser to sign in/m);
  assert.match(login.stdout, /userId\s+urn:svc:user:/);
  const profileFile = path.join(configDir, 'profiles', 'default.json');
  assert.equal(fs.statSync(profileFile).mode & 0o777, 0o600);

  // whoami says who: the e-mail, the name and the accounts, as the service knows them.
  const me = await json(['whoami']);
  assert.deepEqual([me.profile, me.server, me.email, me.name], ['default', world.url, world.owner.email, 'projectOwner Test']);
  assert.match(me.userId, /^urn:svc:user:/);
  assert.deepEqual(me.accounts.map((a: { name: string }) => a.name), ['Proj']);
  assert.match(ok(await cli(['whoami'])).stdout, /^email\s+projectowner@proj\.test$/m);

  // A project and a zone under its root zone, by the command.
  const project = await json(['projects', 'create', '--account', world.accountId, '--name', 'CLI e2e', '--subscription', SUB_A]);
  const zone = await json(['workzones', 'create', '--account', world.accountId, '--project', project.id, '--name', 'Level 1']);
  assert.equal(zone.parentId, project.rootWorkzoneId);
  const table = ok(await cli(['workzones', 'list', '--account', world.accountId, '--project', project.id])).stdout;
  assert.match(table, /│ id\s+│ name\s+│/);
  assert.match(table, /Level 1/);

  // Several files: in a terminal the bar shows; piped, nothing but the results.
  const files = [1_500_000, 900_000, 2_200_000, 10].map((n, i) => {
    const f = path.join(work, `scan-${i}.e57`);
    fs.writeFileSync(f, crypto.randomBytes(n));
    return f;
  });
  const target = ['--account', world.accountId, '--project', project.id, '--zone', zone.id];
  const tty = await scanbaseInTerminal(['upload', ...target, '--concurrency', '2', ...files.slice(0, 3)], { configDir });
  assert.equal(tty.code, 0, tty.stdout);
  // The batch's line (bytes, rate, ETA, files), and a line per file in flight.
  assert.match(tty.stdout, /upload \[[█░]+\] \d+% \| [\d.]+ (B|KiB|MiB)\/[\d.]+ MiB \| [\d.]+ (B|KiB|MiB)\/s \| ETA [^|]+ \| \d\/3 files/, 'the bar, drawn on the terminal');
  assert.match(tty.stdout, /upload \[█{40}\] 100% \| 4\.4 MiB\/4\.4 MiB \| [^|]+\/s \| ETA [^|]+ \| 3\/3 files/);
  assert.match(tty.stdout, /\r/, 'redrawn in place');
  const piped = ok(await cli(['upload', ...target, files[3]!]));
  assert.equal(piped.stderr, '', 'no progress when piped');
  assert.match(piped.stdout, /│ uploaded │/);
  assert.doesNotMatch(piped.stdout, /█|░|\d+%/);
  // The same commands again: registered already (each command's journal), nothing sent twice.
  const up = [...(await json(['upload', ...target, ...files.slice(0, 3)])), ...(await json(['upload', ...target, files[3]!]))];
  assert.deepEqual(up.map((f: { status: string }) => f.status), Array(4).fill('already there'));
  const listed = await json(['files', 'list', '--account', world.accountId, '--project', project.id]);
  assert.deepEqual(listed.map((f: { blobName: string }) => f.blobName).sort(), up.map((f: { blobName: string }) => f.blobName).sort(), 'each file once');

  for (const [i, f] of up.entries()) {
    const out = path.join(work, `copy-${i}`);
    // The first by blob name with the MD5 given, the others by file id (the record's MD5).
    const by = i === 0 ? ['--blob', f.blobName, '--md5', f.md5] : [f.id];
    const d = await json(['download', ...by, '--account', world.accountId, '--project', project.id, '--out', out]);
    assert.equal(d.md5Checked, true);
    assert.ok(fs.readFileSync(out).equals(fs.readFileSync(files[i]!)), `${files[i]}: the same bytes`);
  }

  // Tags: import JSON into a list, export CSV, import the CSV into a second list, export JSON: the same data.
  const scope = ['--account', world.accountId, '--project', project.id];
  const listA = await json(['tag-lists', 'create', ...scope, '--zone', zone.id, '--name', 'A']);
  const listB = await json(['tag-lists', 'create', ...scope, '--zone', zone.id, '--name', 'B', '--type', '2d']);
  const data = [
    { id: 'T-1', name: 'valve, "main"', class: 'valve', unit: 2, needValidation: true, boundingBox: [0, 0, 0, 1, 1, 1], customFields: [{ name: 'floor', value: '1' }] },
    { id: 'T-2', name: '42', description: 'line one\nline two', confidence: 0.5, cameraState: { position: [1, 2, 3], target: [0, 0, 0] } },
  ];
  const source = path.join(work, 'tags.json');
  fs.writeFileSync(source, JSON.stringify(data));
  assert.equal((await json(['tags', 'import', source, ...scope, '--list', listA.id])).created, 2);
  const csv = path.join(work, 'tags.csv');
  ok(await cli(['tags', 'export', ...scope, '--list', listA.id, '--out', csv]));
  assert.match(fs.readFileSync(csv, 'utf8'), /^tagId,data\.id,data\.name,/);
  assert.equal((await json(['tags', 'import', csv, ...scope, '--list', listB.id])).created, 2);
  const back = JSON.parse(ok(await cli(['tags', 'export', ...scope, '--list', listB.id])).stdout) as { data: Record<string, unknown> }[];
  const byId = (a: Record<string, unknown>[]) => [...a].sort((x, y) => String(x.id).localeCompare(String(y.id)));
  assert.deepEqual(byId(back.map((t) => t.data)), byId(data));
  const replaced = await json(['tags', 'import', source, ...scope, '--list', listB.id, '--replace']);
  assert.deepEqual([replaced.deleted, replaced.created], [2, 2]);

  // Updates and deletes through the resource commands.
  const renamed = await json(['files', 'update', up[3].id, ...scope, '--name', 'renamed']);
  assert.equal(renamed.name, 'renamed');
  ok(await cli(['files', 'delete', up[3].id, ...scope]));
  const gone = await cli(['files', 'get', up[3].id, ...scope]);
  assert.equal(gone.code, 5, 'not found: exit 5');
  assert.match(gone.stderr, /^scanbase: [\w-]+ \(404\): /);

  ok(await cli(['logout']));
  const after = await cli(['whoami']);
  assert.equal(after.code, 3, 'not signed in: exit 3');
  assert.match(after.stderr, /not signed in: run `scanbase login`/);
});

test('cli: login --no-browser prints the address and waits on the loopback redirect', async () => {
  const login = ok(await loginInChromium('printed', 'headless'));
  assert.match(login.stderr, /^Open this address in a browser to sign in:\nhttp:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?.*redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fcallback/m);
  assert.equal((await json(['whoami'], { profile: 'headless' })).server, world.url);
});

test('cli: login --with-token takes a token pair (JSON) or a bare refresh token; token prints a usable access token', async () => {
  const pair = await world.operator('POST', '/tokens', { email: world.owner.email });
  const first = await json(['login', '--with-token', '--base-url', world.url], { stdin: JSON.stringify(pair), profile: 'ci' });
  assert.equal(first.userId, pair.user_id);
  // Without --base-url the server is the pair's issuer (the service's PUBLIC_URL), not a default.
  const byIssuer = await json(['login', '--with-token'], { stdin: JSON.stringify(await world.operator('POST', '/tokens', { email: world.owner.email })), profile: 'issuer' });
  assert.equal(byIssuer.server, world.url);
  assert.equal((await json(['whoami'], { profile: 'issuer' })).email, world.owner.email);
  // A bare refresh token names no server: with neither --base-url nor a profile's server, a usage error.
  const unknown = await cli(['login', '--with-token'], { stdin: 'some-refresh-token', profile: 'nowhere' });
  assert.equal(unknown.code, 2, unknown.stderr);
  assert.match(unknown.stderr, /give --base-url/);
  const token = ok(await cli(['token'], { profile: 'ci' })).stdout.trim();
  assert.equal(token, pair.access_token, 'still valid: no refresh');
  const res = await fetch(`${world.url}/api/isLogged`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);

  const other = await world.operator('POST', '/tokens', { email: world.owner.email });
  ok(await cli(['login', '--with-token', '--base-url', world.url], { stdin: `${other.refresh_token}\n`, profile: 'bare' }));
  const t = await json(['token'], { profile: 'bare' });
  assert.notEqual(t.accessToken, other.access_token, 'the bare refresh token was spent for a fresh pair');
  const spent = await cli(['login', '--with-token', '--base-url', world.url], { stdin: other.refresh_token, profile: 'again' });
  assert.equal(spent.code, 3, 'a spent refresh token: exit 3');
});

test('cli: exit codes by failure kind: usage 2, not found 5, refused input 6, no answer 8; --base-url must match the profile', async () => {
  assert.equal((await cli(['frobnicate'])).code, 2);
  assert.equal((await cli(['projects', 'get', crypto.randomUUID(), '--account', world.accountId], { profile: 'ci' })).code, 5);
  assert.equal((await cli(['projects', 'create', '--account', world.accountId, '--name', '', '--subscription', SUB_A], { profile: 'ci' })).code, 6);
  assert.equal((await cli(['projects', 'create', '--account', world.accountId, '--data', '{not json'], { profile: 'ci' })).code, 2);
  const mismatch = await cli(['--base-url', 'http://127.0.0.1:9', 'whoami'], { profile: 'ci' });
  assert.equal(mismatch.code, 2);
  assert.match(mismatch.stderr, /signed in on http:\/\/127\.0\.0\.1:\d+, not http:\/\/127\.0\.0\.1:9/);
  const down = await cli(['login', '--with-token', '--base-url', 'http://127.0.0.1:9'], { stdin: 'some-refresh-token', profile: 'down' });
  assert.equal(down.code, 8, down.stderr);
});

test('cli: --account defaults to the only account, accounts and subscriptions go by name, subscriptions list; with several accounts --account is required', async () => {
  const mine = await json(['projects', 'list'], { profile: 'ci' });
  assert.ok(mine.length >= 1, 'the only account: Proj');
  const subs = await json(['subscriptions', 'list', '--account', 'Proj'], { profile: 'ci' });
  assert.deepEqual(subs.map((x: { name: string }) => x.name).sort(), ['A', 'B', 'Inactive', 'Invite']);
  assert.match(ok(await cli(['subscriptions', 'list'], { profile: 'ci' })).stdout, /│ Invite\s+│/);
  // By name, its case aside: the account "Proj", the subscription "A".
  const made = await json(['projects', 'create', '--account', 'proj', '--subscription', 'a', '--name', 'By names'], { profile: 'ci' });
  assert.equal(made.subscriptionId.endsWith(SUB_A), true, made.subscriptionId);
  const unknownSub = await cli(['projects', 'create', '--subscription', 'No such plan', '--name', 'X'], { profile: 'ci' });
  assert.equal(unknownSub.code, 6, unknownSub.stderr);
  // A second account: the default no longer applies, and the refusal names the accounts.
  await world.operator('POST', '/seed', { accounts: [{ name: 'Elsewhere', owner: 'other-owner@proj.test', members: ['outsider@proj.test', world.owner.email] }] });
  const several = await cli(['projects', 'list'], { profile: 'ci' });
  assert.equal(several.code, 2);
  assert.match(several.stderr, /--account is required .*2 accounts: (Proj, Elsewhere|Elsewhere, Proj)/);
});

test('cli: one line and no stack for what is not a bug: a missing file, a refusal (naming the role that grants it), no answer in time', async () => {
  const missing = await cli(['upload', '--account', 'Proj', '--project', crypto.randomUUID(), '--zone', crypto.randomUUID(), path.join(work, 'missing.e57')], { profile: 'ci' });
  assert.equal(missing.code, 1);
  assert.equal(missing.stderr, `scanbase: ${path.join(work, 'missing.e57')}: no such file or directory\n`);

  const member = await world.operator('POST', '/tokens', { email: 'member@proj.test' });
  ok(await cli(['login', '--with-token'], { stdin: JSON.stringify(member), profile: 'member' }));
  const refused = await cli(['projects', 'create', '--name', 'Nope', '--subscription', SUB_A], { profile: 'member' });
  assert.equal(refused.code, 4);
  assert.equal(refused.stderr, 'scanbase: create-project-forbidden (403): Requires account:projects:create (granted by: project manager)\n');

  // A service that takes the connection and never answers: the command gives up after --timeout.
  const silent = net.createServer(() => {});
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  try {
    const port = (silent.address() as net.AddressInfo).port;
    ok(await cli(['login', '--with-token', '--base-url', `http://127.0.0.1:${port}`], { stdin: JSON.stringify(member), profile: 'silent' }));
    const started = Date.now();
    const r = await cli(['--timeout', '1', 'whoami'], { profile: 'silent' });
    assert.equal(r.code, 8, r.stderr);
    assert.match(r.stderr, /^scanbase: timeout \(no answer\): GET http:\/\/127\.0\.0\.1:\d+\/oauth\/userinfo: no answer within 1 s\n$/);
    assert.ok(Date.now() - started < 15_000, 'not the server\'s idle timeout');
    assert.equal((await cli(['--timeout', 'soon', 'whoami'], { profile: 'silent' })).code, 2);
  } finally {
    silent.close();
  }
});

test('cli: completion bash lists the commands, their sub-commands and options, and is valid bash', async () => {
  const script = ok(await cli(['completion', 'bash'])).stdout;
  assert.match(script, /complete -F _scanbase scanbase/);
  assert.match(script, /""\) words="login logout whoami token accounts subscriptions projects workzones members files tag-lists annotations measurements share-links upload download tags sso scim integrations proxy sandbox completion --profile --base-url --json --timeout /);
  assert.match(script, /"projects create"\) words="[^"]*--subscription/);
  const words = spawnSync('bash', ['-c', `${script}\nCOMP_WORDS=(scanbase projects cr); COMP_CWORD=2; _scanbase; echo "\${COMPREPLY[@]}"`], { encoding: 'utf8' });
  assert.equal(words.stdout.trim(), 'create');
});
