// The console's tag forms (console/src/tag-box.ts, console/src/metadata.ts) and the ranges
// its streamed LAS preview reads (console/src/three/las-stream.ts): pure rules, checked
// without a browser (the browser tests check them on screen, test/e2e/console-tags.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boxFieldsOf, boxOf, withBox } from '../../console/src/tag-box.ts';
import { definitionsOf, metadataOf } from '../../console/src/metadata.ts';
import { parseLasHeader, recordWindows } from '../../console/src/three/las-stream.ts';
import { lasFile } from '../support/console.ts';

test('box form: a min above its max, a size not above 0 or a field that is not a number is refused with the reason', () => {
  assert.equal(boxOf('axis', ['0', '0', '5', '1', '1', '4']), 'Min Z must not exceed Max Z.');
  assert.equal(boxOf('oriented', ['0', '0', '0', '1', '0', '1', '0']), 'The sizes must be greater than 0.');
  assert.equal(boxOf('axis', ['0', '', '0', '1', '1', '1']), 'Min Y must be a number.');
  assert.deepEqual(boxOf('axis', ['0', '0', '0', '1', '2', '3']), { boundingBox: [0, 0, 0, 1, 2, 3] });
});

test('box form: a stored oriented box reads back as centre, sizes and its angle about Z; a tilted one is not editable, with the reason', () => {
  const half = Math.PI / 8; // 45° about Z
  const f = boxFieldsOf({ orientedBoundingBox: [10, 20, 3, 0, 0, Math.sin(half), Math.cos(half), 4, 2, 1], boundingBox: [0, 0, 0, 1, 1, 1] });
  assert.deepEqual(f, { kind: 'oriented', numbers: ['10', '20', '3', '4', '2', '1', '45'], tilted: null });
  const tilted = boxFieldsOf({ orientedBoundingBox: [0, 0, 0, 0.2, 0, 0, Math.sqrt(0.96), 1, 1, 1] });
  assert.match(tilted.tilted ?? '', /tilted/);
  assert.deepEqual(boxFieldsOf({ boundingBox: [1, 2, 3, 4, 5, 6] }), { kind: 'axis', numbers: ['1', '2', '3', '4', '5', '6'], tilted: null });
});

test('box form: a new box replaces both kinds of the stored one (the service computes an oriented box\'s enclosure), other fields kept', () => {
  const stored = { id: 't', name: 'n', boundingBox: [0, 0, 0, 1, 1, 1], orientedBoundingBox: [0.5, 0.5, 0.5, 0, 0, 0, 1, 1, 1, 1] };
  assert.deepEqual(withBox(stored, { boundingBox: [0, 0, 0, 2, 2, 2] }), { id: 't', name: 'n', boundingBox: [0, 0, 0, 2, 2, 2] });
  const obb = [1, 1, 1, 0, 0, 0, 1, 2, 2, 2];
  assert.deepEqual(withBox(stored, { orientedBoundingBox: obb }), { id: 't', name: 'n', orientedBoundingBox: obb });
});

test('metadata values: one entry per definition with a value, in the definitions\' order; values of removed definitions are counted as dropped', () => {
  const defs = [{ id: 'm1', name: 'Floor' }, { id: 'm2', name: 'Owner' }];
  const stored = [{ id: 'gone', value: 'x' }, { id: 'm2', value: 'Ann' }];
  assert.deepEqual(metadataOf(defs, { m2: ' Bob ', m1: '', gone: 'x' }, stored), { metadata: [{ id: 'm2', value: 'Bob' }], dropped: 1 });
});

test('metadata definitions: a missing or repeated name is refused with the reason; names are trimmed', () => {
  assert.equal(definitionsOf([{ id: 'a', name: '  ' }]), 'Definition 1 needs a name.');
  assert.equal(definitionsOf([{ id: 'a', name: 'Floor' }, { id: 'b', name: 'floor ' }]), 'Two definitions are named "floor".');
  assert.match(String(definitionsOf(Array.from({ length: 51 }, (_, i) => ({ id: `${i}`, name: `n${i}` })))), /at most 50/);
  assert.deepEqual(definitionsOf([{ id: 'a', name: ' Floor ' }]), [{ id: 'a', name: 'Floor' }]);
});

test('LAS ranges: every record of a small scan; 200,000 records in 128 evenly spaced windows of a large one, the last ending at its last record', () => {
  assert.deepEqual(recordWindows(1500), [{ first: 0, count: 750 }, { first: 750, count: 750 }]);
  const w = recordWindows(10_000_000);
  assert.equal(w.length, 128);
  assert.ok(w.reduce((n, x) => n + x.count, 0) <= 200_000);
  assert.equal(w[0]!.first, 0);
  assert.equal(w.at(-1)!.first + w.at(-1)!.count, 10_000_000);
  for (let i = 1; i < w.length; i++) assert.ok(w[i]!.first >= w[i - 1]!.first + w[i - 1]!.count, 'windows do not overlap');
  assert.deepEqual(recordWindows(0), []);
});

test('LAS header: where the records start, their format and length, the count, scale and offset; a compressed (LAZ) format is sent to the whole-file path', () => {
  const las = lasFile([[100, 200, 30], [101, 201, 31]]);
  const own = () => new Uint8Array(las).buffer;
  const h = parseLasHeader(own());
  assert.deepEqual(h, { pointOffset: 227, format: 0, recordLength: 20, count: 2, scale: [0.01, 0.01, 0.01], offset: [100, 200, 30] });
  las.writeUInt8(0x80 | 3, 104);
  assert.throws(() => parseLasHeader(own()), /compressed/);
  assert.throws(() => parseLasHeader(new ArrayBuffer(300)), /LASF/);
});
