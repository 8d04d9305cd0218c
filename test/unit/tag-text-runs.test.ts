// The whole-list text kept per node, by property: runOf makes a run of the store's
// aggregate (texts joined by 0x02, an id/place/state index) in place order whatever order
// the rows came in; patchRuns applied to kept runs and a change set gives exactly the list a
// fresh whole read would give (updated tags in place, deleted ones gone, new and moved ones
// last in place order), and each tag's offsets point at its own text.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { runOf } from '../../src/modules/tags/postgres/tag-runs.ts';
import { patchRuns } from '../../src/modules/tags/http/tag-text-cache.ts';
import type { TagTextRun } from '../../src/modules/tags/core/ports.ts';

interface Tag {
  id: string;
  seq: number;
  text: string;
  deleted?: boolean;
}

/** The run the store would hand on for these rows, in the order given. */
const runFrom = (rows: readonly Tag[]) =>
  runOf(Buffer.from(rows.map((r) => r.text).join('\u0002')), rows.map((r) => `${r.id} ${r.seq}${r.deleted ? ' d' : ''}`).join(','));

const textsOf = (run: TagTextRun) => run.ids.map((_, i) => run.text.subarray(run.starts[i]!, run.starts[i + 1]! - 1).toString());

/** Tag texts as JSON values are written (any JSON: the 0x02 separator never occurs raw in JSON text). */
const text = fc.json({ maxDepth: 2 });
const list = fc.uniqueArray(fc.record({ id: fc.uuid(), text }), { selector: (t) => t.id, minLength: 1, maxLength: 40 })
  .map((tags) => tags.map((t, i) => ({ ...t, seq: 10 * (i + 1) })));

describe('runOf', () => {
  test('a run holds its tags in place order, comma-joined, each offset on its own text, whatever order the rows came in', () => {
    fc.assert(fc.property(list, fc.infiniteStream(fc.nat()), (tags, noise) => {
      const shuffled = [...tags].sort(() => (noise.next().value % 3) - 1);
      const run = runFrom(shuffled);
      assert.deepEqual(run.ids, tags.map((t) => t.id));
      assert.deepEqual(run.seqs, tags.map((t) => t.seq));
      assert.deepEqual(textsOf(run), tags.map((t) => t.text));
      assert.equal(run.text.toString(), tags.map((t) => t.text).join(','));
      assert.equal(run.starts[tags.length], run.text.length + 1);
    }), { numRuns: 200 });
  });

  test('tombstones are marked', () => {
    const run = runFrom([{ id: 'a', seq: 1, text: '{}' }, { id: 'b', seq: 2, text: '{"isDeleted":true}', deleted: true }]);
    assert.deepEqual(run.deleted, [false, true]);
  });

  test('texts and index that disagree are refused', () => {
    assert.throws(() => runOf(Buffer.from('{}\u0002{}'), 'a 1'), /differ/);
    assert.throws(() => runOf(Buffer.from('{}'), 'a 1,b 2'), /differ/);
  });
});

describe('patchRuns', () => {
  const scenario = list.chain((tags) => fc.record({
    tags: fc.constant(tags),
    cuts: fc.uniqueArray(fc.integer({ min: 1, max: tags.length }), { maxLength: 4 }),
    fates: fc.array(fc.constantFrom('same', 'same', 'same', 'update', 'delete', 'move'), { minLength: tags.length, maxLength: tags.length }),
    newTexts: fc.array(text, { minLength: tags.length, maxLength: tags.length }),
    created: fc.uniqueArray(fc.record({ id: fc.uuid(), text }), { selector: (t) => t.id, maxLength: 5 }),
  }));

  test('kept runs patched with the changes after their version are the list a whole read gives', () => {
    fc.assert(fc.property(scenario, ({ tags, cuts, fates, newTexts, created }) => {
      const bounds = [0, ...[...cuts].sort((a, b) => a - b), tags.length];
      const base = bounds.slice(1).map((end, i) => tags.slice(bounds[i], end)).filter((r) => r.length).map(runFrom);
      let seq = 10 * (tags.length + 1);
      const changes: Tag[] = [];
      const after: Tag[] = [];
      tags.forEach((t, i) => {
        const fate = fates[i]!;
        if (fate === 'same') after.push(t);
        else if (fate === 'update') {
          changes.push({ ...t, text: newTexts[i]! });
          after.push({ ...t, text: newTexts[i]! });
        } else if (fate === 'delete') changes.push({ ...t, text: '{"isDeleted":true}', deleted: true });
      });
      // Moved away and back (a new place), and created: last, in place order.
      tags.forEach((t, i) => {
        if (fates[i] !== 'move') return;
        const moved = { ...t, seq: seq++, text: newTexts[i]! };
        after.push(moved);
      });
      for (const c of created) after.push({ ...c, seq: seq++ });
      const moved = after.filter((t) => t.seq > 10 * tags.length);
      const inPlaceOrder = [...changes, ...moved].sort((a, b) => a.seq - b.seq);
      const { body, run } = patchRuns(base, inPlaceOrder.length ? [runFrom(inPlaceOrder)] : []);
      const expected = after.sort((a, b) => a.seq - b.seq);
      assert.equal(body.toString(), `[${expected.map((t) => t.text).join(',')}]`);
      assert.deepEqual(JSON.parse(body.toString()), expected.map((t) => JSON.parse(t.text)));
      assert.deepEqual(run.ids, expected.map((t) => t.id));
      assert.deepEqual(run.seqs, expected.map((t) => t.seq));
      assert.deepEqual(textsOf(run), expected.map((t) => t.text));
      assert.equal(run.text.buffer, body.buffer, 'the run is a view of the body: one copy of the bytes');
    }), { numRuns: 300 });
  });

  test('a list emptied by its changes is []', () => {
    const base = [runFrom([{ id: 'a', seq: 1, text: '{}' }])];
    const { body, run } = patchRuns(base, [runFrom([{ id: 'a', seq: 1, text: '{"isDeleted":true}', deleted: true }])]);
    assert.equal(body.toString(), '[]');
    assert.equal(run.ids.length, 0);
  });
});
