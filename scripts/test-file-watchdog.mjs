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
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout } from 'node:timers';

const seconds = Number(process.env.TEST_FILE_TIMEOUT_SECONDS);
if (process.env.NODE_TEST_CONTEXT?.startsWith('child') && seconds > 0) {
  const file = path.relative(process.cwd(), process.argv[1] ?? '?');
  setTimeout(() => {
    process.stderr.write(`\n${file}: still running after TEST_FILE_TIMEOUT_SECONDS=${seconds}; ending the file and what it started\n`);
    process.exit(1);
  }, seconds * 1000).unref();
}

const cpuTimes = process.env.TEST_CPU_TIMES;
if (process.env.NODE_TEST_CONTEXT?.startsWith('child') && cpuTimes) {
  const file = path.relative(process.cwd(), process.argv[1] ?? '?');
  process.on('exit', () => {
    // /proc/self/stat fields 14–17: utime, stime, cutime, cstime in clock ticks (100 a second
    // on Linux); the command name (field 2) may hold spaces, so count from its closing ')'.
    const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    fs.appendFileSync(cpuTimes, `${(ticks / 100).toFixed(1)}\t${file}\n`);
  });
}
