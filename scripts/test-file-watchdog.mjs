// Loaded (--import) by every process of a `npm test` run; active only in the processes
// that run one test file each (node:test sets NODE_TEST_CONTEXT in them). A file still
// running after TEST_FILE_TIMEOUT_SECONDS — a hang outside any test's own timeout (module
// top level, a teardown that never returns) — is ended: a line on stderr names it, and
// process.exit runs the exit handlers that kill what the file started
// (test/support/children.ts; Playwright's for browsers). The timer does not keep the
// process alive.
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
