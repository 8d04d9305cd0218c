// @engine-independent: the counting is covered on both engines in test/http/usage-downloads.test.ts.
// Tag downloads in the usage report (docs/usage.md "Tag downloads") against a started service:
// whole reads of a list through the SDK are tallied by the node and appear in the report as
// the live tags read; a read of the changes after a version adds nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readTags, writeTags } from '../src/node/index.ts';
import { clientWorld } from './support/client-world.ts';

const on = clientWorld({ name: 'usage-tags' });

test('a started service counts the live tags of whole tag-list reads in the usage report; reads after a version count nothing', async () => {
  const { world, client } = on;
  const refs = { accountId: world.accountId, projectId: world.projectId };
  const project = `/api/2/accounts/${world.accountId}/projects/${world.projectId}`;
  const made = await client.fetch(`${project}/tag-lists`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ workzoneId: world.zoneId, tagListType: '3d', name: 'Counted' }),
  });
  const list = ((await made.json()) as { id: string }).id;
  const written = await writeTags(client, refs, list, { create: Array.from({ length: 30 }, (_, i) => ({ data: { id: `T-${i}` } })) });
  const subs = (await (await client.fetch(`/api/2/accounts/${world.accountId}/subscriptions`)).json()) as { id: string }[];
  const downloaded = async () => {
    let total = 0;
    for (const s of subs) {
      const rows = (await (await client.fetch(`/api/2/accounts/${world.accountId}/subscriptions/${encodeURIComponent(s.id)}/usage-report`)).json()) as { tagsDownloaded: number }[];
      total += rows.reduce((n, r) => n + r.tagsDownloaded, 0);
    }
    return total;
  };
  const before = await downloaded();
  assert.equal((await readTags(client, refs, list)).length, 30);
  assert.equal((await readTags(client, refs, list)).length, 30);
  assert.equal(await downloaded(), before + 60, 'two whole reads of 30 live tags');
  await readTags(client, refs, list, { afterVersion: written.tagsVersion });
  assert.equal(await downloaded(), before + 60, 'a read after a version counts nothing');
});
