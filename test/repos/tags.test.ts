// The tags repository on every engine: tombstones and the three filters (live, after a
// version, since a time), the text the store writes (renderTags, streamTagTexts) equal to
// the route's own writer tag by tag, across the chunk and run boundaries, and the
// subscription's count.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { suiteStore } from '../support/suite-store.ts';
import type { TagFilter, TagJsonShape, TagListRecord, TagTextRun } from '../../src/modules/tags/core/ports.ts';
import { tagShapeOf, tagWriterOf } from '../../src/modules/tags/core/tag-json.ts';
import { api1TagJson } from '../../src/modules/tags/http/api1-tag-json.ts';
import { api2TagJson } from '../../src/modules/tags/http/api2-tag-json.ts';

const tagShape = (ns: string, l: TagListRecord) => tagShapeOf(api2TagJson(ns), l);
import { ENGINES } from '../support/database.ts';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (s: number) => new Date(T0.getTime() + s * 1000);

for (const engine of ENGINES) {
  describe(`tags repository on ${engine}`, () => {
    const suite = suiteStore(engine);
    const repos = suite.repos;
    const user = crypto.randomUUID();
    const sub = crypto.randomUUID();
    const project = crypto.randomUUID();
    const zone = crypto.randomUUID();

    async function newList(): Promise<TagListRecord> {
      const id = crypto.randomUUID();
      await repos.tags.insertList({
        id, projectId: project, workzoneId: zone, tagListType: '3d', name: 'L', description: '', color: '#000000',
        metadataDefinitions: [], attachments: null, createdAt: T0, createdBy: user,
      });
      return (await repos.tags.listById(id))!;
    }
    /** streamTagTexts' runs, and one row per tag read from them. */
    async function tagRows(listId: string, filter: TagFilter, shape: TagJsonShape) {
      const runs: TagTextRun[] = [];
      const { version } = await repos.tags.streamTagTexts(listId, filter, shape, (r) => runs.push(r));
      const rows = runs.flatMap((r) => r.ids.map((id, i) => ({
        id, seq: r.seqs[i]!, deleted: r.deleted[i]!, json: r.text.subarray(r.starts[i]!, r.starts[i + 1]! - 1).toString(),
      })));
      return { version, runs, rows };
    }
    const data = (id: string) => JSON.stringify({ id, boundingBox: [0, 0, 0, 1, 1, 1], name: 'ü "quoted" \\ back' });

    const account = crypto.randomUUID();
    before(async () => {
      await suite.store.transaction(async (tx) => {
        await tx.users.insert({ id: user, email: `${user}@t.test`, firstName: 'T', lastName: 'T', company: '', title: '', passwordHash: null, invitedBy: null, invitedAt: null }, T0);
        await tx.accounts.insert({ id: account, name: `A ${account}`, ownerId: user, createdBy: user }, T0);
        await tx.subscriptions.insert({
          id: sub, accountId: account, name: 'S', isTrial: false, isVa: false, isActive: true, scanCapacity: 1, tagCapacity: 1_000_000,
          geoImageCapacity: 1, start: null, end: null, inviteAccountOwnerInNewProjects: false,
        }, T0);
        await tx.projects.insert({
          id: project, accountId: account, subscriptionId: sub, name: 'P', description: '', ownerId: user, location: null, spatialReference: null,
          region: 'default', isDemo: false, rootWorkzoneId: zone, coverBlobName: null, createdAt: T0, createdBy: user,
        });
        await tx.workzones.insert({ id: zone, projectId: project, parentId: null, name: 'P', description: '', coverBlobName: null, createdAt: T0, createdBy: user });
      });
    });

    test('tombstones: live tags, changes after a version, changes since a time', async () => {
      const l = await newList();
      const [a, b, c] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
      await repos.tags.insertTags(l.id, [a, b, c].map((id) => ({ id, data: data(id) })), 1, user, at(1));
      await repos.tags.updateTags(l.id, [{ id: a, data: data('a2') }], 2, user, at(2));
      assert.deepEqual(await repos.tags.deleteTags(l.id, [b, crypto.randomUUID()], 3, user, at(3)), [b]);
      assert.deepEqual(await repos.tags.deleteTags(l.id, [b], 4, user, at(4)), [], 'a tombstone is not deleted twice');
      assert.deepEqual((await repos.tags.tags(l.id, { all: true })).map((t) => t.id), [a, c]);
      const after1 = await repos.tags.tags(l.id, { afterVersion: 1 });
      assert.deepEqual(after1.map((t) => [t.id, t.version, t.deletedAt !== null]), [[a, 2, false], [b, 3, true]]);
      assert.deepEqual((await repos.tags.tags(l.id, { since: at(2.5) })).map((t) => t.id), [b]);
      assert.equal(JSON.parse((await repos.tags.tagsByIds(l.id, [a]))[0]!.data).id, 'a2');
    });

    test('the text the store writes is the route writer’s, tag by tag, tombstones included (both API generations)', async () => {
      const l = await newList();
      const ids = Array.from({ length: 5 }, () => crypto.randomUUID());
      await repos.tags.insertTags(l.id, ids.map((id) => ({ id, data: data(id) })), 1, user, at(1));
      await repos.tags.deleteTags(l.id, [ids[1]!], 2, null, at(2));
      for (const description of [api2TagJson('svc'), api1TagJson]) {
        const write = tagWriterOf(description, l);
        const shape = tagShapeOf(description, l);
        for (const filter of [{ all: true } as const, { afterVersion: 0 }, { since: at(0) }]) {
          const where = `API ${description.generation} ${JSON.stringify(filter)}`;
          const rows = await repos.tags.tags(l.id, filter);
          const rendered = await repos.tags.renderTags(l.id, filter, shape);
          assert.equal(rendered.json, rows.map(write).join(','), where);
          assert.equal(rendered.version, 0, 'the version of the list row (touchList is the use case’s)');
          const perRow = await tagRows(l.id, filter, shape);
          assert.equal(perRow.version, 0);
          assert.deepEqual(perRow.rows.map((r) => r.json), rows.map(write), where);
          assert.equal(perRow.runs.map((r) => r.text.toString()).join(','), rows.map(write).join(','), 'a run’s text is its tags joined by commas');
          assert.deepEqual(perRow.rows.map((r) => [r.id, r.deleted]), rows.map((t) => [t.id, t.deletedAt !== null]));
        }
      }
    });

    test('a whole list past the chunk size is written once, in order (and in several runs)', async () => {
      const l = await newList();
      const n = 25_001;
      const ids = Array.from({ length: n }, () => crypto.randomUUID());
      await repos.tags.insertTags(l.id, ids.map((id, i) => ({ id, data: JSON.stringify({ id: `t${i}` }) })), 1, user, at(1));
      const rows = await tagRows(l.id, { all: true }, tagShape('svc', l));
      assert.deepEqual(rows.rows.map((r) => r.id), ids);
      assert.ok(rows.runs.length > 1, `${rows.runs.length} runs`);
      assert.ok(rows.rows.every((r, i) => i === 0 || r.seq > rows.rows[i - 1]!.seq), 'runs come in list order');
      assert.equal(JSON.parse(`[${rows.runs.map((r) => r.text.toString()).join(',')}]`).length, n);
      const text = await repos.tags.renderTags(l.id, { all: true }, tagShape('svc', l));
      const parsed = JSON.parse(`[${text.json}]`) as { data: { id: string } }[];
      assert.equal(parsed.length, n);
      assert.ok(parsed.every((t, i) => t.data.id === `t${i}`));
      const changes = JSON.parse(`[${(await repos.tags.renderTags(l.id, { afterVersion: 0 }, tagShape('svc', l))).json}]`) as { data: { id: string } }[];
      assert.deepEqual(changes.map((t) => t.data.id), parsed.map((t) => t.data.id), 'changes after a version come in runs too, in order');
    });

    test('stored tag text is only served while it is what the query would write (inserts, updates, deletions, another shape)', async () => {
      const l = await newList();
      const shape = tagShape('svc', l);
      const computed = { ...shape, generation: undefined }; // never reads stored text
      const text = async (s: typeof shape) => (await tagRows(l.id, { afterVersion: 0 }, s)).rows.map((r) => r.json);
      const ids = Array.from({ length: 6 }, () => crypto.randomUUID());
      await repos.tags.insertTags(l.id, ids.map((id) => ({ id, data: data(id) })), 1, user, at(1), [shape]);
      const stored = async () =>
        (await suite.db.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM tags WHERE list_id = $1 AND text_2 IS NOT NULL AND text_key_2 IS NOT NULL', [l.id]))[0]!.n;
      assert.equal(await stored(), 6, 'inserts are written with their text');
      assert.deepEqual(await text(shape), await text(computed));

      await repos.tags.updateTags(l.id, [{ id: ids[0]!, data: data('changed') }], 2, user, at(2));
      await repos.tags.deleteTags(l.id, [ids[1]!], 2, user, at(2));
      assert.equal(await stored(), 4, 'an update or a deletion clears the kept text');
      assert.deepEqual(await text(shape), await text(computed), 'rows without kept text are written by the query');
      await repos.tags.storeTagText(l.id, [shape], { version: 2 });
      assert.equal(await stored(), 6);
      const after = await text(shape);
      assert.deepEqual(after, await text(computed));
      assert.match(after[0]!, /"changed"/);
      assert.match(after[1]!, /"isDeleted":true/);

      // Another shape (the list's type changed): the kept text is not served, and 'stale' rewrites it.
      const other = tagShape('svc', { ...l, tagListType: 'other-type' });
      assert.deepEqual(await text(other), await text({ ...other, generation: undefined }));
      assert.ok((await text(other)).every((t) => t.includes('"tagListType":"other-type"')));
      await repos.tags.storeTagText(l.id, [other], 'stale');
      const keys = await suite.db.sql.query<{ k: string }>('SELECT DISTINCT text_key_2 AS k FROM tags WHERE list_id = $1', [l.id]);
      assert.equal(keys.length, 1);
      assert.ok((await text(other)).every((t) => t.includes('"tagListType":"other-type"')));
      assert.ok((await text(shape)).every((t) => t.includes(`"tagListType":${JSON.stringify(l.tagListType)}`)), 'the first shape is written by the query again');
    });

    test('the subscription counts the live tags of its lists', async () => {
      const before = await repos.tags.countForSubscription(sub);
      const l = await newList();
      await repos.tags.touchList(l.id, { version: 1, tagCount: 7, pending: false, by: user, now: at(1) });
      assert.equal(await repos.tags.countForSubscription(sub), before + 7);
      assert.deepEqual(await repos.tags.subscriptionOfList(l.id), { id: sub, accountId: account, tagCapacity: 1_000_000 });
    });
  });
}
