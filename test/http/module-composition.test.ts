// The composed node (src/compose.ts) lists every feature module's descriptor once, and
// its job runner, scheduler and seeder get what the descriptors declare
// (docs/architecture.md "Module descriptors").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { testApp } from '../support/app.ts';

const CORE = path.resolve(import.meta.dirname, '../../src/core');
const moduleDirs = fs.readdirSync(CORE, { withFileTypes: true })
  .filter((d) => d.isDirectory() && fs.existsSync(path.join(CORE, d.name, 'index.ts')))
  .map((d) => d.name);

test('the composed node builds every feature module once, each job kind with one handler, the tasks and seed extensions from the descriptors', async () => {
  const t = await testApp({ SMTP_URL: 'smtp://127.0.0.1:1', RATE_LIMIT_USER_RATE: '5' });
  try {
    const modules = t.core.modules;
    const names = modules.map((m) => m.name);
    assert.equal(new Set(names).size, names.length, `a module listed twice: ${names.join(', ')}`);
    for (const dir of moduleDirs) assert.ok(names.includes(dir), `src/core/${dir} is not listed in src/compose.ts`);
    assert.ok(names.includes('permissions'));

    const kinds = modules.flatMap((m) => m.jobKinds);
    assert.deepEqual([...kinds].sort(), ['export-to-mesh', 'password-reset-mail', 'point-cloud-conversion', 'tag-detection', 'workzone-copy']);
    for (const m of modules) for (const kind of m.enqueues) assert.ok(kinds.includes(kind), `${m.name} enqueues ${kind}`);

    // SANDBOX=1, SMTP_URL and a rate limit set: every periodic task of the modules is on (but
    // autodesk-sign-ins, on only with Autodesk configured; integration-token-sealing and
    // integration-links always are: a link left pending when a third party's configuration was
    // removed fails with that reason).
    assert.deepEqual(modules.flatMap((m) => m.tasks).sort(), [
      'integration-links', 'integration-token-sealing', 'janitor', 'mail-relay', 'multipart-sweeper', 'point-cloud-intake', 'rate-limit-exchange', 'sandbox-clock', 'signing-keys', 'sso-logins', 'upload-sweeper', 'usage-tally', 'webhook-owner-notices', 'webhook-relay',
    ]);
    assert.deepEqual(modules.filter((m) => m.seedExtensions > 0).map((m) => m.name), ['roles']);
  } finally {
    await t.close();
  }
});
