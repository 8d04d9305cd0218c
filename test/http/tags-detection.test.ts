// Detection with a plugged-in detector (CONTRACT §8, the TagDetector port): what it finds
// becomes AI tags in one version, within the subscription's tag capacity, invalid ones
// skipped; a detection that fails for good clears `pending` too.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.ts';
import { compose, type Core } from '../../src/compose.ts';
import { buildApp, type App } from '../../src/http/app.ts';
import { DomainError } from '../../src/core/errors.ts';
import type { DetectionRequest, TagDetector } from '../../src/modules/tags/core/tag-detector.ts';
import { testDatabase } from '../support/database.ts';
import { OPERATOR_TOKEN, PUBLIC_URL } from '../support/app.ts';
import { caller, type Call } from '../support/projects.ts';
import { scanIn } from '../support/tags.ts';

const ACCOUNT = 'e1111111-1111-4111-8111-111111111111';
const SUB = 'e2222222-2222-4222-8222-222222222222';
const A2 = `/api/2/accounts/${ACCOUNT}`;

let core: Core;
let app: App;
let drop: () => Promise<void>;
let as: Call;
let project: any;
let scan: string;
const requests: DetectionRequest[] = [];
let mode: 'find' | 'fail' = 'find';

const detector: TagDetector = {
  async detect(req) {
    requests.push(req);
    if (mode === 'fail') throw new DomainError('invalid', 'invalid-input', 'the detector refuses the request');
    return [
      { id: 'AI-1', class: 'valve', boundingBox: [0, 0, 0, 1, 1, 1], confidence: 0.9 },
      { id: 'AI-bad', boundingBox: [1, 0, 0, 0, 1, 1] },
      { id: 'AI-2', class: 'valve', orientedBoundingBox: [5, 5, 5, 0, 0, 0, 1, 1, 2, 3] },
      { id: 'AI-3', class: 'valve', boundingBox: [2, 0, 0, 3, 1, 1] },
    ];
  },
};

before(async () => {
  const db = await testDatabase();
  drop = db.drop;
  core = await compose(loadConfig({ DATABASE_URL: 'memory:', OPERATOR_TOKEN, PUBLIC_URL }), { sql: db.sql, detector });
  app = await buildApp(core);
  const op = { authorization: `Bearer ${OPERATOR_TOKEN}` };
  const seeded = await app.inject({
    method: 'POST', url: '/_operator/seed', headers: op,
    payload: {
      users: [{ email: 'pm@detect.test', password: 'pm-password-1', firstName: 'P', lastName: 'M' }],
      accounts: [{ id: ACCOUNT, name: 'Detect', owner: 'pm@detect.test', projectManagers: ['pm@detect.test'], subscriptions: [{ id: SUB, name: 'Small', tagCapacity: 3 }] }],
    },
  });
  assert.equal(seeded.statusCode, 200, seeded.body);
  const tokens = await app.inject({ method: 'POST', url: '/_operator/tokens', headers: op, payload: { email: 'pm@detect.test' } });
  as = caller({ app } as never, tokens.json().access_token);
  const p = await as('POST', `${A2}/projects`, { name: 'Detect P', subscriptionId: SUB });
  assert.equal(p.status, 201, JSON.stringify(p.body));
  project = p.body;
  scan = await scanIn(core, project.id, project.rootWorkzoneId);
});
after(async () => {
  await app?.close();
  await core?.close();
  await drop?.();
});

const lists = () => `${A2}/projects/${project.id.split(':').pop()}/tag-lists`;

test('detected tags are added as AI tags in one version, within the capacity; pending is cleared', async () => {
  const l = (await as('POST', lists(), { workzoneId: project.rootWorkzoneId, tagListType: '3d', name: 'AI' })).body;
  const id = l.id.split(':').pop();
  assert.equal((await as('POST', `${lists()}/${id}/tags/bulk`, { create: [{ data: { id: 'manual' } }] })).status, 200);
  await core.jobRunner.stop();
  try {
    const res = await as('POST', `${lists()}/${id}/ai-detection`, { classes: ['valve'], filesIds: [scan] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.pending, true);
    await core.jobRunner.drain();
  } finally {
    core.jobRunner.start();
  }
  assert.deepEqual(requests.at(-1), { tagListId: id, projectId: project.id.split(':').pop(), classes: ['valve'], fileIds: [scan] });
  const after = (await as('GET', `${lists()}/${id}`)).body;
  assert.equal(after.pending, false);
  assert.equal(after.tagsVersion, 2);
  const tags = (await as('GET', `${lists()}/${id}/tags`)).body;
  // Capacity 3, one manual tag: two detections fit; the invalid one was skipped.
  assert.deepEqual(tags.map((t: any) => [t.data.id, t.data.nature ?? null]), [['manual', null], ['AI-1', 'AI'], ['AI-2', 'AI']]);
  assert.deepEqual(tags[2].data.boundingBox, [4.5, 4, 3.5, 5.5, 6, 6.5]);
});

test('a detection that fails for good clears pending and adds nothing', async () => {
  const l = (await as('POST', lists(), { workzoneId: project.rootWorkzoneId, tagListType: '3d', name: 'AI 2' })).body;
  const id = l.id.split(':').pop();
  mode = 'fail';
  await core.jobRunner.stop();
  try {
    assert.equal((await as('POST', `${lists()}/${id}/ai-detection`, { classes: ['pipe'], filesIds: [scan] })).body.pending, true);
    await core.jobRunner.drain();
  } finally {
    core.jobRunner.start();
    mode = 'find';
  }
  const after = (await as('GET', `${lists()}/${id}`)).body;
  assert.equal(after.pending, false);
  assert.equal(after.tagsVersion, 0);
});
