// The local-disk store's upload writer (src/adapters/storage/local-disk.ts): batches,
// resumed partial writes, flushes while the body arrives, failures surfaced and the file
// closed. Against a recording file handle, so every call is visible.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { FlushingWriter } from '../../src/adapters/storage/local-disk.ts';

type Call = { op: 'writev'; position: number; bytes: number } | { op: 'datasync' | 'sync' | 'close' };

/** A file handle in memory: writes at most `maxPerWrite` bytes per call, like a short write. */
function recordingHandle(opts: { maxPerWrite?: number; failWriteAt?: number } = {}) {
  const calls: Call[] = [];
  const data: Buffer[] = [];
  let written = 0;
  const fh = {
    async writev(buffers: Buffer[], position: number) {
      await new Promise((r) => setImmediate(r));
      const pos = position;
      if (pos !== written) throw new Error(`write at ${pos}, file has ${written}`);
      if (opts.failWriteAt !== undefined && pos >= opts.failWriteAt) throw Object.assign(new Error('no space'), { code: 'ENOSPC' });
      let budget = opts.maxPerWrite ?? Infinity;
      let n = 0;
      for (const b of buffers) {
        const take = Math.min(b.length, budget);
        data.push(Buffer.from(b.subarray(0, take)));
        n += take;
        budget -= take;
        if (budget === 0) break;
      }
      written += n;
      calls.push({ op: 'writev', position: pos, bytes: n });
      return { bytesWritten: n };
    },
    async datasync() {
      calls.push({ op: 'datasync' });
    },
    async sync() {
      calls.push({ op: 'sync' });
    },
    async close() {
      calls.push({ op: 'close' });
    },
  };
  return { fh, calls, contents: () => Buffer.concat(data) };
}

const chunksOf = (total: Buffer, sizes: number[]) => {
  const out: Buffer[] = [];
  for (let at = 0, i = 0; at < total.length; i++) {
    const n = Math.min(sizes[i % sizes.length]!, total.length - at);
    out.push(total.subarray(at, at + n));
    at += n;
  }
  return out;
};

test('upload writer: every byte lands in order, in batches, with a flush per flushEvery bytes and one final fsync', async () => {
  const body = crypto.randomBytes(300_000);
  const { fh, calls, contents } = recordingHandle();
  const w = new FlushingWriter(fh, { batch: 16_384, flushEvery: 100_000 });
  for (const c of chunksOf(body, [1000, 7000, 333, 65_536])) await w.push(c);
  await w.finish();
  assert.ok(contents().equals(body));
  const writes = calls.filter((c) => c.op === 'writev');
  assert.ok(writes.length < 40, `batched: ${writes.length} writes`);
  assert.equal(calls.filter((c) => c.op === 'datasync').length >= 2, true, 'flushed while receiving');
  assert.deepEqual(calls.slice(-2).map((c) => c.op), ['sync', 'close']);
});

test('upload writer: a short write is resumed where it stopped', async () => {
  const body = crypto.randomBytes(50_000);
  const { fh, calls, contents } = recordingHandle({ maxPerWrite: 3001 });
  const w = new FlushingWriter(fh, { batch: 10_000 });
  for (const c of chunksOf(body, [4096, 999])) await w.push(c);
  await w.finish();
  assert.ok(contents().equals(body));
  assert.ok(calls.filter((c) => c.op === 'writev').length >= 50_000 / 3001);
});

test('upload writer: a failing write surfaces as the error; abandon closes the file once', async () => {
  const { fh, calls } = recordingHandle({ failWriteAt: 20_000 });
  const w = new FlushingWriter(fh, { batch: 10_000 });
  const failed = await (async () => {
    try {
      for (const c of chunksOf(crypto.randomBytes(200_000), [5000])) await w.push(c);
      await w.finish();
      return null;
    } catch (e) {
      return e as NodeJS.ErrnoException;
    }
  })();
  assert.equal(failed?.code, 'ENOSPC');
  await w.abandon();
  await w.abandon();
  assert.equal(calls.filter((c) => c.op === 'close').length, 1);
  assert.equal(calls.filter((c) => c.op === 'sync').length, 0, 'nothing published');
});
