// Tag geometry (spec "Tag geometry", CONTRACT §8), by property: every valid generated
// geometry is accepted and its computed boundingBox encloses every corner of every part
// (corners computed here by rotating vectors with the quaternion, not with the module's
// matrix); every mutated invalid one is refused naming the right field.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  GeometryError, MAX_AXIS_ALIGNED_BOXES, checkAxisAligned, checkModel, tagBoundingBox, withBoundingBox, type Box,
} from '../../src/modules/tags/core/geometry.ts';
import { DomainError } from '../../src/core/errors.ts';

const RUNS = { numRuns: 300 };
const coord = fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true });
const extent = fc.double({ min: 0, max: 1e3, noNaN: true, noDefaultInfinity: true });
const size = fc.double({ min: 1e-3, max: 1e3, noNaN: true, noDefaultInfinity: true });
const v3 = fc.tuple(coord, coord, coord);

const aabb = fc.tuple(v3, fc.tuple(extent, extent, extent)).map(([p, e]) => [p[0], p[1], p[2], p[0] + e[0], p[1] + e[1], p[2] + e[2]] as Box);
const unitQuat = fc
  .tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
  .filter((q) => Math.hypot(...q) > 0.1)
  .map((q) => {
    const n = Math.hypot(...q);
    return q.map((x) => x / n) as [number, number, number, number];
  });
const obb = fc.tuple(v3, unitQuat, fc.tuple(size, size, size)).map(([p, q, s]) => [...p, ...q, ...s]);
const grouped = fc.tuple(unitQuat, fc.array(fc.tuple(v3, fc.tuple(size, size, size)), { minLength: 1, maxLength: 5 }))
  .map(([q, gs]) => [...q, ...gs.flatMap(([p, s]) => [...p, ...s])]);

/** v' = q v q* (Hamilton product), independent of the module's rotation matrix. */
function rotate(q: readonly number[], v: readonly number[]): number[] {
  const [x, y, z, w] = q as [number, number, number, number];
  const mul = (a: number[], b: number[]) => [
    a[3]! * b[0]! + a[0]! * b[3]! + a[1]! * b[2]! - a[2]! * b[1]!,
    a[3]! * b[1]! - a[0]! * b[2]! + a[1]! * b[3]! + a[2]! * b[0]!,
    a[3]! * b[2]! + a[0]! * b[1]! - a[1]! * b[0]! + a[2]! * b[3]!,
    a[3]! * b[3]! - a[0]! * b[0]! - a[1]! * b[1]! - a[2]! * b[2]!,
  ];
  const r = mul(mul([x, y, z, w], [v[0]!, v[1]!, v[2]!, 0]), [-x, -y, -z, w]);
  return r.slice(0, 3);
}

function corners(p: readonly number[], q: readonly number[], s: readonly number[]): number[][] {
  const out: number[][] = [];
  for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) {
    const r = rotate(q, [(sx * s[0]!) / 2, (sy * s[1]!) / 2, (sz * s[2]!) / 2]);
    out.push([p[0]! + r[0]!, p[1]! + r[1]!, p[2]! + r[2]!]);
  }
  return out;
}
const obbCorners = (o: readonly number[]) => corners(o.slice(0, 3), o.slice(3, 7), o.slice(7, 10));
const aabbCorners = (b: readonly number[]) => [b.slice(0, 3), b.slice(3, 6)];
const groupedCorners = (g: readonly number[]) => {
  const out: number[][] = [];
  for (let k = 4; k < g.length; k += 6) out.push(...corners(g.slice(k, k + 3), g.slice(0, 4), g.slice(k + 3, k + 6)));
  return out;
};

function assertEncloses(box: readonly number[], points: number[][]) {
  for (const pt of points) {
    for (let i = 0; i < 3; i++) {
      const eps = 1e-6 * Math.max(1, Math.abs(pt[i]!));
      assert.ok(box[i]! <= pt[i]! + eps && box[i + 3]! >= pt[i]! - eps, `box ${JSON.stringify(box)} misses ${JSON.stringify(pt)} on axis ${i}`);
    }
  }
}

function refused(fn: () => unknown, field: string | RegExp) {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof GeometryError, String(e));
    if (typeof field === 'string') assert.equal(e.field, field);
    else assert.match(e.field, field);
    return;
  }
  assert.fail(`accepted, expected a refusal on ${String(field)}`);
}

describe('valid geometry is accepted and enclosed', () => {
  test('an axis-aligned box is its own boundingBox', () => {
    fc.assert(fc.property(aabb, (b) => assert.deepEqual(tagBoundingBox({ boundingBox: b }), b)), RUNS);
  });

  test('an oriented box gets a boundingBox enclosing its eight corners', () => {
    fc.assert(fc.property(obb, (o) => assertEncloses(tagBoundingBox({ orientedBoundingBox: o })!, obbCorners(o))), RUNS);
  });

  test('the computed boundingBox of an oriented box is tight (a corner touches each face)', () => {
    fc.assert(fc.property(obb, (o) => {
      const b = tagBoundingBox({ orientedBoundingBox: o })!;
      const cs = obbCorners(o);
      for (let i = 0; i < 3; i++) {
        const eps = 1e-6 * Math.max(1, Math.abs(b[i]!), Math.abs(b[i + 3]!));
        assert.ok(cs.some((c) => Math.abs(c[i]! - b[i]!) <= eps), `min face ${i}`);
        assert.ok(cs.some((c) => Math.abs(c[i]! - b[i + 3]!) <= eps), `max face ${i}`);
      }
    }), RUNS);
  });

  test('an AxisAlignedList model gets the union of its boxes', () => {
    fc.assert(fc.property(fc.array(aabb, { minLength: 1, maxLength: 30 }), (list) => {
      const b = tagBoundingBox({ model: { type: 'AxisAlignedList', list } })!;
      assertEncloses(b, list.flatMap(aabbCorners));
    }), RUNS);
  });

  test('an OrientedList model (independent, grouped and mixed) gets a boundingBox enclosing every part', () => {
    const model = fc.record({
      list: fc.option(fc.array(aabb, { maxLength: 5 }), { nil: undefined }),
      orientedBoundingBoxList: fc.option(fc.array(obb, { maxLength: 5 }), { nil: undefined }),
      groupedOBBList: fc.option(fc.array(grouped, { maxLength: 3 }), { nil: undefined }),
    }).filter((m) => (m.list?.length ?? 0) + (m.orientedBoundingBoxList?.length ?? 0) + (m.groupedOBBList?.length ?? 0) > 0);
    fc.assert(fc.property(model, (m) => {
      const clean = Object.fromEntries(Object.entries(m).filter(([, v]) => v !== undefined));
      const b = tagBoundingBox({ model: { type: 'OrientedList', ...clean } })!;
      assertEncloses(b, [
        ...(m.list ?? []).flatMap(aabbCorners), ...(m.orientedBoundingBoxList ?? []).flatMap(obbCorners), ...(m.groupedOBBList ?? []).flatMap(groupedCorners),
      ]);
    }), RUNS);
  });

  test('a given boundingBox that encloses the parts is kept as given', () => {
    fc.assert(fc.property(obb, extent, (o, grow) => {
      const c = tagBoundingBox({ orientedBoundingBox: o })!;
      const given = [c[0] - grow, c[1] - grow, c[2] - grow, c[3] + grow, c[4] + grow, c[5] + grow];
      assert.deepEqual(tagBoundingBox({ orientedBoundingBox: o, boundingBox: given }), given);
    }), RUNS);
  });

  test('a quaternion within the tolerance of unit length is accepted', () => {
    fc.assert(fc.property(obb, fc.double({ min: 0.9995, max: 1.0005, noNaN: true }), (o, k) => {
      const scaled = [...o.slice(0, 3), ...o.slice(3, 7).map((x) => x * k), ...o.slice(7)];
      assertEncloses(tagBoundingBox({ orientedBoundingBox: scaled })!, obbCorners(o));
    }), RUNS);
  });
});

describe('mutated geometry is refused naming the field', () => {
  test('min greater than max on an axis', () => {
    fc.assert(fc.property(aabb, fc.integer({ min: 0, max: 2 }), fc.double({ min: 1e-3, max: 1e3, noNaN: true }), (b, axis, d) => {
      const bad = [...b];
      bad[axis] = b[axis + 3]! + d;
      refused(() => tagBoundingBox({ boundingBox: bad }), `boundingBox[${axis}]`);
    }), RUNS);
  });

  test('a value that is not a finite number', () => {
    fc.assert(fc.property(aabb, fc.integer({ min: 0, max: 5 }), fc.constantFrom<unknown>(NaN, Infinity, -Infinity, '1', null, 2e9), (b, k, v) => {
      const bad: unknown[] = [...b];
      bad[k] = v;
      refused(() => tagBoundingBox({ boundingBox: bad }), `boundingBox[${k}]`);
    }), RUNS);
  });

  test('the wrong count of numbers', () => {
    fc.assert(fc.property(fc.array(coord, { maxLength: 12 }).filter((a) => a.length !== 6), (a) => refused(() => tagBoundingBox({ boundingBox: a }), 'boundingBox')), RUNS);
    fc.assert(fc.property(fc.array(coord, { maxLength: 12 }).filter((a) => a.length !== 10), (a) => refused(() => tagBoundingBox({ orientedBoundingBox: a }), 'orientedBoundingBox')), RUNS);
  });

  test('a quaternion that is not of unit length', () => {
    const factor = fc.oneof(fc.double({ min: 0, max: 0.99, noNaN: true }), fc.double({ min: 1.01, max: 100, noNaN: true }));
    fc.assert(fc.property(obb, factor, (o, k) => {
      const bad = [...o.slice(0, 3), ...o.slice(3, 7).map((x) => x * k), ...o.slice(7)];
      refused(() => tagBoundingBox({ orientedBoundingBox: bad }), 'orientedBoundingBox[3..6]');
    }), RUNS);
  });

  test('a size that is not positive', () => {
    fc.assert(fc.property(obb, fc.integer({ min: 0, max: 2 }), fc.double({ min: -1e3, max: 0, noNaN: true }), (o, j, s) => {
      const bad = [...o];
      bad[7 + j] = s;
      refused(() => tagBoundingBox({ orientedBoundingBox: bad }), `orientedBoundingBox[${7 + j}]`);
    }), RUNS);
  });

  test('a given boundingBox that does not enclose the oriented box', () => {
    fc.assert(fc.property(obb, fc.integer({ min: 0, max: 5 }), (o, face) => {
      const c = [...tagBoundingBox({ orientedBoundingBox: o })!];
      const span = c[(face % 3) + 3]! - c[face % 3]!;
      // Pull one face in by half the span: beyond the rounding tolerance (1e-6 relative) only.
      fc.pre(span / 2 > 4 * Math.max(1e-6, Math.abs(c[face]!) * 1e-6));
      c[face] = c[face]! + (face < 3 ? 1 : -1) * (span / 2);
      refused(() => tagBoundingBox({ orientedBoundingBox: o, boundingBox: c }), 'boundingBox');
    }), RUNS);
  });

  test('an invalid box inside an AxisAlignedList names its index', () => {
    fc.assert(fc.property(fc.array(aabb, { minLength: 1, maxLength: 20 }), fc.nat(), fc.integer({ min: 0, max: 2 }), (list, pick, axis) => {
      const i = pick % list.length;
      const bad = list.map((b) => [...b]);
      bad[i]![axis] = bad[i]![axis + 3]! + 1;
      refused(() => checkModel({ type: 'AxisAlignedList', list: bad }), `model.list[${i}][${axis}]`);
    }), RUNS);
  });

  test('a grouped OBB entry of the wrong length or with a bad quaternion', () => {
    fc.assert(fc.property(grouped, fc.integer({ min: 1, max: 5 }), (g, cut) => {
      refused(() => checkModel({ type: 'OrientedList', groupedOBBList: [g.slice(0, g.length - cut)] }), 'model.groupedOBBList[0]');
      const badQ = [g[0]! * 3, g[1]! * 3, g[2]! * 3, g[3]! * 3, ...g.slice(4)];
      refused(() => checkModel({ type: 'OrientedList', groupedOBBList: [badQ] }), 'model.groupedOBBList[0][0..3]');
    }), RUNS);
  });

  test('more than 1,000 boxes, an empty or unknown model', () => {
    const many = Array.from({ length: MAX_AXIS_ALIGNED_BOXES + 1 }, (_, i) => [i, 0, 0, i + 1, 1, 1]);
    refused(() => checkModel({ type: 'AxisAlignedList', list: many }), 'model.list');
    assert.equal(checkModel({ type: 'AxisAlignedList', list: many.slice(0, MAX_AXIS_ALIGNED_BOXES) }).length, MAX_AXIS_ALIGNED_BOXES);
    refused(() => checkModel({ type: 'OrientedList' }), 'model');
    refused(() => checkModel({ type: 'BinarizedAxisAlignedList', binary: 'AAAA' }), 'model.type');
    refused(() => checkModel({ type: 'AxisAlignedList', list: [[0, 0, 0, 1, 1, 1]], extra: 1 }), 'model.extra');
    refused(() => checkModel('box'), 'model');
    assert.deepEqual(checkAxisAligned([0, 0, 0, 0, 0, 0], 'b'), [0, 0, 0, 0, 0, 0], 'a flat box is allowed (min = max)');
  });

  test('the core error is 400 invalid-input naming the tag and the field', () => {
    const e = (() => {
      try {
        withBoundingBox({ id: 'T-7', boundingBox: [1, 0, 0, 0, 1, 1] }, { index: 3, id: 'T-7' });
      } catch (x) {
        return x;
      }
      return null;
    })();
    assert.ok(e instanceof DomainError);
    assert.equal(e.status, 400);
    assert.equal(e.code, 'invalid-input');
    assert.deepEqual(e.values, { field: 'boundingBox[0]', tagIndex: 3, tagId: 'T-7' });
    assert.match(e.message, /#3 "T-7": boundingBox\[0\]/);
    assert.deepEqual(withBoundingBox({ id: 'plain' }, { index: 0 }), { id: 'plain' }, 'a tag without geometry stays as it is');
  });
});
