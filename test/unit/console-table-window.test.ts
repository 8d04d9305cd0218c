// The console's windowed tag table (console/src/table-window.ts) and the rotations its
// forms send (console/src/geometry.ts): pure rules, checked without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ROW_PX, windowOf } from '../../console/src/table-window.ts';
import { degreesAboutZ, quaternionAboutZ } from '../../console/src/geometry.ts';

test('table window: the rows in view plus ten above and below, never past either end', () => {
  // 480 px show 15 rows; at the top: rows 0–24.
  assert.deepEqual(windowOf(0, 480, 50_000), [0, 25]);
  // Scrolled to row 1,000: rows 990 to 1,025.
  assert.deepEqual(windowOf(1000 * ROW_PX, 480, 50_000), [990, 1025]);
  // At the bottom of 50,000 rows the window ends at the last row.
  const [, end] = windowOf(50_000 * ROW_PX, 480, 50_000);
  assert.equal(end, 50_000);
  assert.deepEqual(windowOf(0, 480, 0), [0, 0]);
});

test('table window: a list shortened by a filter while scrolled far down shows its rows before the browser clamps the scroll position', () => {
  assert.deepEqual(windowOf(49_000 * ROW_PX, 480, 10), [0, 10]);
});

test('rotation about Z: 90° is the unit quaternion (0, 0, √½, √½); the angle reads back', () => {
  const q = quaternionAboutZ(90);
  assert.deepEqual(q.map((v) => +v.toFixed(12)), [0, 0, +Math.SQRT1_2.toFixed(12), +Math.SQRT1_2.toFixed(12)]);
  assert.equal(Math.hypot(...q).toFixed(12), '1.000000000000');
  for (const degrees of [0, 45, -30, 179]) {
    const [, , z, w] = quaternionAboutZ(degrees);
    assert.equal(degreesAboutZ({ z, w }), degrees);
  }
});
