// The Mesher over Open3D (docs/mesh-export.md): the scans are streamed from the object store,
// their points read by this project's readers (src/pointclouds) and written as float64 x, y, z
// for the worker process (mesh_worker.py beside this file, run by MESH_PYTHON, default Debian's
// /usr/bin/python3 with python3-open3d); its OBJ goes back to the object store whole.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pipeline } from 'node:stream/promises';
import type { ObjectStore } from '../../../core/ports/object-store.ts';
import { blobAccessOf } from '../../../adapters/snapshots/blobs.ts';
import { openPointCloud, PointCloudError, type InputFormat } from '../../../pointclouds/index.ts';
import { MeshFailure, type CropRegion, type Mesher } from '../core/ports.ts';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'mesh_worker.py');
/** The worker's exit code for input that makes no mesh (mesh_worker.py). */
const NO_MESH = 2;

interface Run { code: number | null; stdout: string; stderr: string }

function runProcess(command: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const inside = (regions: readonly CropRegion[], x: number, y: number, z: number) =>
  regions.some((r) => r.every(([a, b, c, d]) => a * x + b * y + c * z + d >= 0));

export function open3dMesher(opts: { python: string; objectStore: ObjectStore }): Mesher {
  const { python, objectStore } = opts;
  let probe: Promise<boolean> | null = null;
  const access = blobAccessOf(objectStore);

  /** Streams an object to a local file. */
  async function download(key: string, toFile: string): Promise<void> {
    const blobs = await access;
    const info = await objectStore.stat(key);
    const got = info && (await blobs.read({ key, size: info.size, md5: info.md5Hex, contentType: null, cacheControl: null }));
    if (!got) throw new MeshFailure(`A scan's bytes are missing from the store (${path.basename(key)})`);
    await pipeline(got.body, fs.createWriteStream(toFile));
  }

  /** Appends the scan's points (inside a region, when any) to `out` as float64 triples; answers how many. */
  async function appendPoints(file: string, format: InputFormat, name: string, regions: readonly CropRegion[], out: fs.WriteStream): Promise<number> {
    let reader;
    try {
      reader = await openPointCloud(file, format);
    } catch (e) {
      if (e instanceof PointCloudError) throw new MeshFailure(`${name}: ${e.message.split(path.basename(file)).join(name)}`);
      throw e;
    }
    let count = 0;
    try {
      // Points go out as they are read, so a read cannot start over: bounds a file declared
      // (an E57's XML) are measured first.
      if (reader.unchecked) await reader.measure?.();
      const { scale, offset } = reader.info.quantization;
      for await (const batch of reader.batches()) {
        const view = new DataView(batch.bytes.buffer, batch.bytes.byteOffset, batch.bytes.byteLength);
        const xyz = new Float64Array(batch.count * 3);
        let n = 0;
        for (let i = 0; i < batch.count; i++) {
          const at = i * 36;
          const x = view.getInt32(at, true) * scale[0] + offset[0];
          const y = view.getInt32(at + 4, true) * scale[1] + offset[1];
          const z = view.getInt32(at + 8, true) * scale[2] + offset[2];
          if (regions.length && !inside(regions, x, y, z)) continue;
          xyz[n++] = x;
          xyz[n++] = y;
          xyz[n++] = z;
        }
        count += n / 3;
        if (n && !out.write(Buffer.from(xyz.buffer, 0, n * 8))) await new Promise<void>((r) => out.once('drain', () => r()));
      }
    } catch (e) {
      if (e instanceof PointCloudError) throw new MeshFailure(`${name}: ${e.message.split(path.basename(file)).join(name)}`);
      throw e;
    } finally {
      await reader.close();
    }
    return count;
  }

  return {
    available() {
      probe ??= runProcess(python, ['-c', 'import open3d']).then((r) => r.code === 0, () => false);
      return probe;
    },

    async build({ inputs, regions, resolution, outputKey, workDir }) {
      const pointsFile = path.join(workDir, 'points.f64');
      const out = fs.createWriteStream(pointsFile);
      try {
        for (const [i, input] of inputs.entries()) {
          const local = path.join(workDir, `scan-${i}.${input.extension}`);
          await download(input.key, local);
          await appendPoints(local, input.extension as InputFormat, input.name, regions, out);
          await fsp.rm(local, { force: true });
        }
      } finally {
        await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
      }
      const meshFile = path.join(workDir, 'mesh.obj');
      const run = await runProcess(python, [WORKER, pointsFile, meshFile, String(resolution)]);
      if (run.code === NO_MESH) throw new MeshFailure(run.stderr.trim());
      if (run.code !== 0) throw new Error(`the mesher failed (exit ${run.code}): ${run.stderr.trim().slice(-500)}`);
      const counts = JSON.parse(run.stdout.trim().split('\n').pop()!) as { vertices: number; triangles: number; points: number };
      const { size } = await fsp.stat(meshFile);
      const hash = createHash('md5');
      await pipeline(fs.createReadStream(meshFile), hash);
      const md5 = hash.digest('hex');
      const blobs = await access;
      await blobs.write({ key: outputKey, size, md5, contentType: 'model/obj', cacheControl: 'private, max-age=31536000, immutable' }, fs.createReadStream(meshFile));
      return { size, md5, ...counts };
    },
  };
}
