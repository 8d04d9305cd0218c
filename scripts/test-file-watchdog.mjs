// Loaded (--import) by every process of a `npm test` run; active only in the processes
// that run one test file each (node:test sets NODE_TEST_CONTEXT in them). A file still
// running after TEST_FILE_TIMEOUT_SECONDS — a hang outside any test's own timeout (module
// top level, a teardown that never returns) — is ended: a line on stderr names it, and
// process.exit runs the exit handlers that kill what the file started
// (test/support/children.ts; Playwright's for browsers). The timer does not keep the
// process alive.
//
// TEST_CPU_TIMES=path: each file process appends, when it exits, its file and the CPU
// seconds it used, its own and its reaped children's (servers, browsers): where a run's CPU
// goes, which the wall times of files run side by side on a busy machine do not say.
//
// TEST_LINGER_SECONDS (60; 0: wait for ever): a file whose tests and hooks are done but whose
// process is still held (a server, browser, pool or timer it left behind) is ended that long
// after its root `after` hooks begin, with the tests' own exit code, and a line naming it and
// what holds it (on stderr, and appended to TEST_LINGER_LOG, which scripts/test.mjs sums up).
// This replaces node's --test-force-exit, which exits as soon as the tests end and so drops
// the tail of the file's results before the runner reads them: fewer tests reported, at exit
// code 0 (nodejs/node#64833; seen here as two tests missing from a 2,245-test run). The
// delay lets the results reach the runner; it counts from the first root `after` hook (this
// one, registered before the file's own), so it must outlast the file's teardown (a server's
// drain and 15 s, a browser's 15 s).
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout } from 'node:timers';

const inTestFile = process.env.NODE_TEST_CONTEXT?.startsWith('child') ?? false;
const file = path.relative(process.cwd(), process.argv[1] ?? '?');

const seconds = Number(process.env.TEST_FILE_TIMEOUT_SECONDS);
if (inTestFile && seconds > 0) {
  setTimeout(() => {
    process.stderr.write(`\n${file}: still running after TEST_FILE_TIMEOUT_SECONDS=${seconds}; ending the file and what it started\n`);
    process.exit(1);
  }, seconds * 1000).unref();
}

const lingerSetting = process.env.TEST_LINGER_SECONDS;
const linger = lingerSetting === undefined || lingerSetting === '' ? 60 : Number(lingerSetting);
if (inTestFile && linger > 0) {
  const { after } = await import('node:test');
  after(() => {
    setTimeout(() => {
      // What still holds the event loop, counted by kind (this timer is unref'd and not among them).
      const held = new Map();
      for (const r of process.getActiveResourcesInfo()) held.set(r, (held.get(r) ?? 0) + 1);
      const holders = [...held].map(([r, n]) => (n > 1 ? `${r} ×${n}` : r)).join(', ');
      const line = `${file}: still running ${linger} s after its tests ended (held by ${holders || 'nothing named'}); ending it and what it started`;
      process.stderr.write(`\n${line}\n`);
      if (process.env.TEST_LINGER_LOG) fs.appendFileSync(process.env.TEST_LINGER_LOG, `${line}\n`);
      process.exit(); // process.exitCode: the tests' own verdict
    }, linger * 1000).unref();
  });
}

const cpuTimes = process.env.TEST_CPU_TIMES;
if (inTestFile && cpuTimes) {
  process.on('exit', () => {
    // /proc/self/stat fields 14–17: utime, stime, cutime, cstime in clock ticks (100 a second
    // on Linux); the command name (field 2) may hold spaces, so count from its closing ')'.
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    fs.appendFileSync(cpuTimes, `${(ticks / 100).toFixed(1)}\t${file}\n`);
  });
}
