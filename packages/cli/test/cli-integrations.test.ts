// @engine-independent: the integrations' SQL is the service's, covered on both engines by test/http/integrations.test.ts.
// `scanbase integrations …` against a started service configured with a fake Konekt (a real
// HTTP server on loopback, test/support/fake-integrations.ts; docs/integrations.md "From the
// command line"): a hub created with its token read from standard input and never printed,
// listed, disconnected, deleted; a project's Autodesk configuration set, shown, deleted; a
// project manager refused (the exit code of a 403); `integrations links --wait` shows the links
// once the service's batch (its task, every second here) has created them at the fake Konekt.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { emailOf } from '../../../test/support/projects.ts';
import { startFakeIntegrations, type FakeIntegrations } from '../../../test/support/fake-integrations.ts';
import { startSdkWorld, type SdkWorld } from '../../sdk/test/support/server.ts';
import { scanbase, type Run } from './support/run.ts';

let world: SdkWorld;
let fake: FakeIntegrations;
let configDir: string;
const TOKEN = 'konekt-cli-token-5d1e';

before(async () => {
  fake = await startFakeIntegrations();
  fake.hubs.push({ token: TOKEN, id: 'hub-cli', name: 'CLI hub', beta: false, projects: [{ id: '77', name: 'Site' }] });
  world = await startSdkWorld({ KONEKT_API_URL: fake.url, TASK_PERIODS: 'integration-links=1' });
  configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-cli-integrations-'));
  for (const [profile, who] of [['admin', 'administrator'], ['pm', 'projectManager'], ['po', 'projectOwner']] as const) {
    const pair = await world.operator('POST', '/tokens', { email: emailOf(who) });
    const r = await scanbase(['--profile', profile, 'login', '--with-token', '--base-url', world.url], { configDir, stdin: JSON.stringify(pair) });
    assert.equal(r.code, 0, r.stderr);
  }
});
after(async () => {
  await world?.stop();
  await fake?.close();
  if (configDir) fs.rmSync(configDir, { recursive: true, force: true });
});

const cli = (profile: string, args: string[], stdin?: string) => scanbase(['--profile', profile, ...args], { configDir, stdin });
const ok = (r: Run) => {
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  return r;
};

test('cli: integrations create reads the Konekt token from standard input and never prints it; list, disconnect, delete', async () => {
  const created = ok(await cli('admin', ['integrations', 'create', '--token-stdin', '--sync-strategy', 'BOTH_WAY', '--json'], `${TOKEN}\n`));
  const hub = JSON.parse(created.stdout);
  assert.equal(hub.konektId, 'hub-cli');
  assert.equal(fake.requests.at(-1)!.headers.authorization, `Bearer ${TOKEN}`);
  const listed = ok(await cli('admin', ['integrations', 'list']));
  assert.match(listed.stdout, /hub-cli\W+CLI hub\W+true/);
  ok(await cli('admin', ['integrations', 'disconnect', hub.id]));
  assert.equal(JSON.parse(ok(await cli('admin', ['integrations', 'list', '--json'])).stdout)[0].connected, false);
  ok(await cli('admin', ['integrations', 'delete', hub.id]));
  assert.deepEqual(JSON.parse(ok(await cli('admin', ['integrations', 'list', '--json'])).stdout), []);
  for (const r of [created, listed]) assert.ok(!`${r.stdout}${r.stderr}`.includes(TOKEN), 'the token is never printed');
});

test('cli: a project\'s Autodesk configuration set, shown and deleted; a project manager may not list the account\'s hubs (403)', async () => {
  const project = ['--project', world.projectId];
  const set = JSON.parse(ok(await cli('po', ['integrations', 'project', 'autodesk', ...project, '--hub', 'b.hub', '--autodesk-project', 'b.p', '--json'])).stdout);
  assert.equal(set.autodeskProjectId, 'b.p');
  assert.equal(JSON.parse(ok(await cli('po', ['integrations', 'project', 'show', ...project, '--json'])).stdout).autodesk.autodeskHubId, 'b.hub');
  ok(await cli('po', ['integrations', 'project', 'delete', 'autodesk', ...project]));
  assert.deepEqual(JSON.parse(ok(await cli('po', ['integrations', 'project', 'show', ...project, '--json'])).stdout), {});
  const refused = await cli('pm', ['integrations', 'list']);
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr, /view-account-integrations-forbidden|account:integrations:read/);
});

test('cli: integrations links --wait initialises the links, waits for the service to create them at Konekt and shows each one\'s url', async () => {
  const project = ['--project', world.projectId];
  const hub = JSON.parse(ok(await cli('admin', ['integrations', 'create', '--token-stdin', '--json'], `${TOKEN}\n`)).stdout);
  ok(await cli('po', ['integrations', 'project', 'konekt', ...project, '--hub', 'hub-cli', '--konekt-project', '77']));
  const note = JSON.parse(ok(await cli('po', ['annotations', 'create', ...project, '--title', 'Damaged column', '--at', '1,2,3', '--type', 'Issue', '--json'])).stdout);
  const rows = JSON.parse(ok(await cli('po', ['integrations', 'links', ...project, '--types', 'NEWFORMA_KONEKT', '--annotations', note.id, '--wait', '30', '--json'])).stdout);
  const issue = fake.issues.find((i) => i.title === `#${note.number} Damaged column`);
  assert.ok(issue, 'the issue was created at Konekt');
  assert.deepEqual(rows, [{ annotation: note.id, type: 'NEWFORMA_KONEKT', status: 'created', url: `${fake.url}/hubs/hub-cli/projects/77/issues/${issue.id}`, failure: null }]);
  const table = ok(await cli('po', ['integrations', 'links', ...project, '--types', 'NEWFORMA_KONEKT', '--wait']));
  assert.doesNotMatch(table.stdout, /pending/, 'nothing new initialised: an empty table');
  ok(await cli('po', ['integrations', 'project', 'delete', 'konekt', ...project]));
  ok(await cli('admin', ['integrations', 'delete', hub.id]));
});
