// Generated clouds for the tests and the bench: a terrain with a few buildings, returns,
// classes, intensity, colour and GPS time, deterministic (point i is the same every run),
// written as LAS 1.2 or 1.4 of any point format, streamed (memory does not grow with the count).
import fs from 'node:fs/promises';
import { BASE_RECORD_LENGTH } from '../../../src/pointclouds/las-format.ts';

export interface SyntheticPoint {
  x: number;
  y: number;
  z: number;
  intensity: number;
  returnNumber: number;
  numberOfReturns: number;
  classification: number;
  scanAngle: number;
  userData: number;
  pointSourceId: number;
  gpsTime: number;
  red: number;
  green: number;
  blue: number;
}

const hash = (i: number, salt: number) => {
  let h = Math.imul(i ^ salt, 0x9e3779b1);
  h ^= h >>> 15;
  h = Math.imul(h, 0x85ebca77);
  h ^= h >>> 13;
  return (h >>> 0) / 4294967296;
};

/** Point i of a `total`-point cloud over a `size` m square (origin at `origin`). */
export function syntheticPoint(i: number, total: number, size = 1000, origin: [number, number, number] = [500_000, 4_000_000, 100]): SyntheticPoint {
  // Scan lines: the points go along rows, like an airborne strip.
  const rows = Math.max(1, Math.round(Math.sqrt(total)));
  const row = Math.floor(i / Math.ceil(total / rows));
  const t = (i % Math.ceil(total / rows)) / Math.ceil(total / rows);
  const x = t * size + hash(i, 1) * 0.05;
  const y = (row / rows) * size + hash(i, 2) * 0.05;
  const building = (Math.floor(x / 100) + Math.floor(y / 100)) % 5 === 0 && x % 100 > 30 && y % 100 > 30;
  const ground = 10 * Math.sin(x / 150) + 8 * Math.cos(y / 120);
  const returns = building ? 1 : 1 + Math.floor(hash(i, 3) * 3);
  const r = 1 + Math.floor(hash(i, 4) * returns);
  const z = ground + (building ? 25 : r < returns ? hash(i, 5) * 15 : 0) + hash(i, 6) * 0.02;
  const shade = Math.floor(128 + 100 * Math.sin(x / 37) * Math.cos(y / 53));
  return {
    x: x + origin[0], y: y + origin[1], z: z + origin[2],
    intensity: Math.floor(500 + 3000 * hash(i, 7)),
    returnNumber: r, numberOfReturns: returns,
    classification: building ? 6 : r === returns ? 2 : 5,
    scanAngle: Math.round((t - 0.5) * 40), userData: 0, pointSourceId: 1 + (row % 3),
    gpsTime: 300_000 + i * 1e-5,
    red: shade * 256, green: (building ? 90 : shade) * 256, blue: (building ? 60 : 255 - shade) * 256,
  };
}

export interface LasWriteOptions {
  version: '1.2' | '1.4';
  format: number;
  count: number;
  scale?: [number, number, number];
  offset?: [number, number, number];
  point?: (i: number) => SyntheticPoint;
  /** Extra bytes per record beyond the format's. */
  extraBytes?: number;
}

/** Writes a LAS file of generated points, a block at a time. Answers the bounds written. */
export async function writeSyntheticLas(file: string, o: LasWriteOptions): Promise<{ min: number[]; max: number[] }> {
  const scale = o.scale ?? [0.001, 0.001, 0.001];
  const offset = o.offset ?? [500_000, 4_000_000, 0];
  const point = o.point ?? ((i: number) => syntheticPoint(i, o.count));
  const headerSize = o.version === '1.4' ? 375 : 227;
  const recordLength = BASE_RECORD_LENGTH[o.format]! + (o.extraBytes ?? 0);
  const legacy = o.format <= 5;
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  const byReturn = new Array<number>(15).fill(0);
  const fh = await fs.open(file, 'w');
  try {
    const block = 65_536;
    let position = headerSize;
    for (let start = 0; start < o.count; start += block) {
      const n = Math.min(block, o.count - start);
      const buf = new Uint8Array(n * recordLength);
      const v = new DataView(buf.buffer);
      for (let k = 0; k < n; k++) {
        const p = point(start + k);
        const b = k * recordLength;
        const xi = Math.round((p.x - offset[0]) / scale[0]);
        const yi = Math.round((p.y - offset[1]) / scale[1]);
        const zi = Math.round((p.z - offset[2]) / scale[2]);
        const real = [xi * scale[0] + offset[0], yi * scale[1] + offset[1], zi * scale[2] + offset[2]];
        for (let a = 0; a < 3; a++) {
          min[a] = Math.min(min[a]!, real[a]!);
          max[a] = Math.max(max[a]!, real[a]!);
        }
        byReturn[p.returnNumber - 1]!++;
        v.setInt32(b, xi, true);
        v.setInt32(b + 4, yi, true);
        v.setInt32(b + 8, zi, true);
        v.setUint16(b + 12, p.intensity, true);
        let gpsAt = -1;
        let rgbAt = -1;
        if (legacy) {
          v.setUint8(b + 14, (p.returnNumber & 7) | ((p.numberOfReturns & 7) << 3));
          v.setUint8(b + 15, p.classification & 31);
          v.setInt8(b + 16, Math.max(-90, Math.min(90, p.scanAngle)));
          v.setUint8(b + 17, p.userData);
          v.setUint16(b + 18, p.pointSourceId, true);
          if ([1, 3, 4, 5].includes(o.format)) gpsAt = 20;
          rgbAt = o.format === 2 ? 20 : o.format === 3 || o.format === 5 ? 28 : -1;
        } else {
          v.setUint8(b + 14, p.returnNumber | (p.numberOfReturns << 4));
          v.setUint8(b + 15, 0);
          v.setUint8(b + 16, p.classification);
          v.setUint8(b + 17, p.userData);
          v.setInt16(b + 18, Math.round(p.scanAngle / 0.006), true);
          v.setUint16(b + 20, p.pointSourceId, true);
          gpsAt = 22;
          rgbAt = [7, 8, 10].includes(o.format) ? 30 : -1;
        }
        if (gpsAt >= 0) v.setFloat64(b + gpsAt, p.gpsTime, true);
        if (rgbAt >= 0) {
          v.setUint16(b + rgbAt, p.red, true);
          v.setUint16(b + rgbAt + 2, p.green, true);
          v.setUint16(b + rgbAt + 4, p.blue, true);
        }
      }
      await fh.write(buf, 0, buf.length, position);
      position += buf.length;
    }
    const h = new Uint8Array(headerSize);
    const v = new DataView(h.buffer);
    h.set(new TextEncoder().encode('LASF'), 0);
    v.setUint8(24, 1);
    v.setUint8(25, o.version === '1.4' ? 4 : 2);
    h.set(new TextEncoder().encode('Scanbase tests'), 58);
    v.setUint16(94, headerSize, true);
    v.setUint32(96, headerSize, true);
    v.setUint32(100, 0, true);
    v.setUint8(104, o.format);
    v.setUint16(105, recordLength, true);
    v.setUint32(107, legacy && o.count <= 0xffffffff ? o.count : 0, true);
    for (let r = 0; r < 5; r++) v.setUint32(111 + r * 4, legacy ? byReturn[r]! : 0, true);
    for (let a = 0; a < 3; a++) {
      v.setFloat64(131 + a * 8, scale[a]!, true);
      v.setFloat64(155 + a * 8, offset[a]!, true);
      v.setFloat64(179 + a * 16, max[a]!, true);
      v.setFloat64(187 + a * 16, min[a]!, true);
    }
    if (o.version === '1.4') {
      v.setBigUint64(247, BigInt(o.count), true);
      for (let r = 0; r < 15; r++) v.setBigUint64(255 + r * 8, BigInt(byReturn[r]!), true);
    }
    await fh.write(h, 0, h.length, 0);
  } finally {
    await fh.close();
  }
  return { min, max };
}
