// Builds the LAZ encoder's WebAssembly (src/pointclouds/laz/assembly/encoder.ts, AssemblyScript)
// into src/pointclouds/laz/assembly/encoder.wasm. Run by `npm ci` (the root `prepare`
// script), by `npm run build:wasm`, and by the Dockerfile's full-install stage. The build
// records the SHA-256 of the source it was made from in encoder.wasm.sha256: the loader
// (laz/chunk-encoder.ts) refuses a WebAssembly built from another source, so an edit that
// is not rebuilt fails loudly instead of converting with the old encoder.
// An install without development packages (`npm ci --omit=dev`) has no AssemblyScript
// compiler: the build is then skipped with a message (the image copies the built file from
// its full-install stage).
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { devToolOrSkip, root } from './dev-tool.mjs';

const dir = path.join(root, 'src/pointclouds/laz/assembly');
const source = path.join(dir, 'encoder.ts');
const output = path.join(dir, 'encoder.wasm');
const asc = devToolOrSkip({ step: 'wasm', tool: 'AssemblyScript', name: 'assemblyscript', bin: 'bin/asc.js', what: 'the LAZ encoder' });
const digest = createHash('sha256').update(fs.readFileSync(source)).digest('hex');
const temporary = `${output}.${process.pid}.tmp`;
// -O3: optimised for speed; the stub runtime: a bump allocator without a collector, reset
// before every chunk (the module allocates nothing that outlives one); no assertions, no bounds
// checks where the source says `unchecked` (its hot paths, whose indices are bounded by
// construction; the rest keep their bounds checks).
const r = spawnSync(
  process.execPath,
  [asc, source, '-O3', '--runtime', 'stub', '--noAssert', '--outFile', temporary],
  { cwd: root, stdio: 'inherit' },
);
if (r.status !== 0) {
  fs.rmSync(temporary, { force: true });
  process.exit(r.status ?? 1);
}
fs.renameSync(temporary, output);
fs.writeFileSync(`${output}.sha256`, `${digest}\n`);
