// Several nodes on one PostgreSQL database start at the same moment (a rolling deploy, a
// scaled service): migrations and the SEED_FILE are applied once, under cluster-wide
// locks, and every node comes up healthy. PostgreSQL only: one PGlite data directory
// serves one process.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startServer, type RunningServer } from '../support/server.ts';
import { TEST_DATABASE_URL, freshPostgresUrl } from '../support/database.ts';

const SEED = {
  users: [
    { email: 'olivia@acme.test', password: 'olivia-password-1', firstName: 'Olivia' },
    { email: 'mark@acme.test', password: 'mark-password-1' },
  ],
  accounts: [
    {
      name: 'Acme',
      owner: 'olivia@acme.test',
      administrators: ['mark@acme.test'],
      subscriptions: [{ name: 'Pro', scanCapacity: 500, start: '2026-01-01T00:00:00Z' }],
      roles: [{ name: 'Surveyor', legacyPermissions: ['view3d', 'upload'] }],
      groups: [{ name: 'Field team', users: ['mark@acme.test'] }],
    },
  ],
};

const running: RunningServer[] = [];
const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const s of running) await s.kill();
  for (const c of cleanups) await c();
});

test('three nodes started at once on one fresh database all become healthy, and the seed is applied once', { skip: !TEST_DATABASE_URL }, async () => {
  const db = await freshPostgresUrl(TEST_DATABASE_URL!);
  cleanups.push(db.drop);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-cluster-'));
  cleanups.push(async () => fs.rmSync(tmp, { recursive: true, force: true }));
  const seedFile = path.join(tmp, 'seed.json');
  fs.writeFileSync(seedFile, JSON.stringify(SEED));

  const nodes = await Promise.allSettled(
    [0, 1, 2].map(() => startServer({ DATABASE_URL: db.url, SEED_FILE: seedFile, PUBLIC_URL: '' })),
  );
  for (const n of nodes) if (n.status === 'fulfilled') running.push(n.value);
  for (const n of nodes) assert.equal(n.status, 'fulfilled', n.status === 'rejected' ? String(n.reason) : '');

  for (const n of running) {
    assert.equal((await fetch(`http://127.0.0.1:${n.port}/healthz`)).status, 200);
    // PUBLIC_URL unset: the issuer is http://localhost:<PORT> of that node.
    const meta = await (await fetch(`http://127.0.0.1:${n.port}/.well-known/oauth-authorization-server`)).json();
    assert.equal(meta.issuer, `http://localhost:${n.port}`);
  }

  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const count = async (table: string) => Number((await client.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
    assert.equal(await count('users'), 2, 'each seeded user once');
    assert.equal(await count('accounts'), 1, 'the seeded account once');
    assert.equal(await count('subscriptions'), 1, 'the seeded subscription once');
    assert.equal(await count('groups'), 1, 'the seeded group once');
  } finally {
    await client.end();
  }
});
