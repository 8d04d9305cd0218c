// @engine-independent: the failures happen before or beside the database (an in-memory one here).
// A start-up that fails on the configuration's account says so in one line naming the
// setting, like a bad value does (config.ts), never with a stack: a port another process
// holds, a HOST that is not this machine's, an object store without credentials, a
// database that does not answer. Each case spawns the real entry point and waits for it to exit.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, runServerToExit as runToExit } from '../support/server.ts';

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'scanbase-startup-failures-'));
after(() => fs.rmSync(home, { recursive: true, force: true }));

/** The entry point until it exits, its start-up log (and the no-mail warning) quiet: the failure's line is the whole output. */
const runServerToExit = (env: Record<string, string>, timeoutMs?: number) => runToExit({ LOG_LEVEL: 'error', ...env }, timeoutMs);

/** Exits non-zero with exactly one line on its output, which names `setting`. */
function assertOneLine(r: { code: number | null; output: string }, setting: string, what: RegExp): void {
  assert.equal(r.code, 1, r.output);
  const lines = r.output.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line, not a stack:\n${r.output}`);
  assert.match(lines[0]!, new RegExp(`^scanbase: ${setting}=`));
  assert.match(lines[0]!, what);
}

/** A port held by another listener for the duration of `fn`. */
async function withPortTaken<T>(fn: (port: number) => Promise<T>): Promise<T> {
  const other = net.createServer();
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  try {
    return await fn((other.address() as net.AddressInfo).port);
  } finally {
    other.close();
  }
}

test('a PORT another process listens on stops the start with one line naming PORT', async () => {
  const r = await withPortTaken((port) => runServerToExit({ PORT: String(port) }));
  assertOneLine(r, 'PORT', /already in use on 127\.0\.0\.1/);
});

test('a METRICS_PORT another process listens on stops the start with one line naming METRICS_PORT', async () => {
  const r = await withPortTaken(async (port) => runServerToExit({ PORT: String(await freePort()), METRICS_PORT: String(port) }));
  assertOneLine(r, 'METRICS_PORT', /already in use/);
});

test('a HOST that does not resolve, or that is not an address of this machine, stops the start with one line naming HOST', async () => {
  const port = String(await freePort());
  const [unknown, foreign] = await Promise.all([
    runServerToExit({ HOST: 'no-such-host.invalid', PORT: port }),
    // TEST-NET-1 (RFC 5737): never an address of this machine.
    runServerToExit({ HOST: '192.0.2.1', PORT: port }),
  ]);
  assertOneLine(unknown, 'HOST', /does not resolve/);
  assertOneLine(foreign, 'HOST', /is not an address of this machine/);
});

test('an S3 store without credentials stops the start with one line naming STORAGE_URL and the credential variables', async () => {
  const r = await runServerToExit({
    DATABASE_URL: 'memory:',
    PORT: String(await freePort()),
    STORAGE_URL: 's3://scans?endpoint=http://127.0.0.1:9&region=us-east-1&forcePathStyle=true',
    // No credentials anywhere: no AWS_* variables (runServerToExit passes none), an empty
    // HOME (no ~/.aws), and no instance metadata service to wait for.
    HOME: home,
    AWS_EC2_METADATA_DISABLED: 'true',
  }, 90_000); // the AWS SDK's credential chain takes ~13 s to give up on an idle machine
  assertOneLine(r, 'STORAGE_URL', /no AWS credentials.*AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
});

test('an Azure connection string without the account key stops the start with one line naming AZURE_STORAGE_CONNECTION_STRING', async () => {
  const r = await runServerToExit({
    DATABASE_URL: 'memory:',
    STORAGE_URL: 'azure://scans',
    AZURE_STORAGE_CONNECTION_STRING: 'BlobEndpoint=http://127.0.0.1:9/acct;AccountName=acct',
  });
  assert.equal(r.code, 1, r.output);
  assert.equal(r.output.trimEnd().split('\n').length, 1, r.output);
  assert.match(r.output, /^scanbase: AZURE_STORAGE_CONNECTION_STRING must hold AccountName and AccountKey/);
});

test('a database server that does not answer stops the start with one line naming DATABASE_URL, its password hidden', async () => {
  const port = await freePort(); // nothing listens there
  const r = await runServerToExit({ DATABASE_URL: `postgres://scan:s3cret@127.0.0.1:${port}/scan`, PORT: String(await freePort()) });
  assertOneLine(r, 'DATABASE_URL', /does not answer \(ECONNREFUSED\)/);
  assert.ok(!r.output.includes('s3cret'), r.output);
});
