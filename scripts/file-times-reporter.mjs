// A node:test reporter that prints each test file's wall time, slowest first (set
// TEST_TIMES=path for scripts/test.mjs): where CI time goes. The runner reports every file
// as a top-level test named after its path, timed by the child process that ran it, set-up
// (servers, seeded worlds) included. Files run concurrently, so the times overlap.
import path from 'node:path';

export default async function* fileTimes(source) {
  const rows = [];
  for await (const event of source) {
    if (event.type !== 'test:complete' || event.data.nesting !== 0 || !event.data.file) continue;
    if (path.resolve(event.data.name) !== event.data.file) continue; // a test, not its file
    rows.push([event.data.name, event.data.details?.duration_ms ?? 0]);
  }
  rows.sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((s, [, ms]) => s + ms, 0);
  yield `test wall time per file, slowest first (${rows.length} files, ${(total / 1000).toFixed(0)} s summed, run concurrently)\n`;
  for (const [file, ms] of rows) yield `${(ms / 1000).toFixed(1).padStart(8)} s  ${file}\n`;
}
