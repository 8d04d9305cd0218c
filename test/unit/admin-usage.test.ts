// `npm run admin`: a usage mistake is found by parsing alone, before the command opens the
// database (src/admin.ts parses first), so it is told at once and never waits for a lock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAdminArgs, UsageError } from '../../src/admin-commands.ts';

const usage = (argv: string[]) => {
  try {
    parseAdminArgs(argv);
  } catch (e) {
    assert.ok(e instanceof UsageError, `${argv.join(' ')}: ${String(e)}`);
    return e.message;
  }
  assert.fail(`${argv.join(' ')} parsed`);
};

test('an unknown command, a missing required option or a value out of its set is a usage error found by parsing alone', () => {
  assert.match(usage(['bogus']), /Unknown command bogus/);
  assert.match(usage(['audit']), /Unknown command audit/);
  assert.match(usage(['create-account', '--name', 'X']), /--owner is required/);
  assert.match(usage(['add-role', '--account', 'A', '--email', 'x@a.test', '--role', 'king']), /--role must be one of/);
  assert.match(usage(['add-role', '--account', 'A', '--email', 'x@a.test']), /--role is required/);
  assert.match(usage(['create-subscription', '--account', 'A', '--name', 'P', '--scans', 'many']), /--scans must be a whole number/);
  assert.match(usage(['outbox', '--state', 'lost']), /--state must be one of/);
  assert.match(usage(['create-account', '--name', 'X', '--owner', 'o@x.test', '--owner-roles', 'king']), /--owner-roles takes/);
  assert.match(usage(['snapshot-restore']), /--name is required/);
  assert.match(usage(['users', 'extra']), /Unexpected argument extra/);
});

test('a well-formed command parses to its name and values; help or no command is the usage', () => {
  assert.deepEqual(parseAdminArgs(['add-role', '--account', 'A', '--email', 'x@a.test', '--role', 'administrator'])?.command, 'add-role');
  assert.equal(parseAdminArgs(['audit', 'verify'])?.command, 'audit verify');
  assert.equal(parseAdminArgs(['outbox', '--state', 'failed'])?.command, 'outbox');
  assert.equal(parseAdminArgs(['--help']), null);
  assert.equal(parseAdminArgs([]), null);
});
