// The usage recorder's tally (download-counts.ts): counts summed per day, user, project and
// action; a flush writes each day once, and a failed write keeps what it could not store for
// the next flush; flushes at once never write the same counts twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DownloadCount } from './recorder.ts';
import { createUsageRecorder, mergeDownloadCounts } from './download-counts.ts';

const tags = (userId: string, count: number, projectId = 'p1'): DownloadCount => ({ projectId, userId, action: 'tags-downloaded', count });
const day1 = new Date('2026-11-27T23:59:59Z');
const day2 = new Date('2026-11-28T00:00:01Z');

function fakeStore(failOn?: (day: string) => boolean) {
  const writes: { day: string; counts: DownloadCount[] }[] = [];
  let gate: Promise<void> = Promise.resolve();
  return {
    writes,
    hold(until: Promise<void>) {
      gate = until;
    },
    store: {
      repos: {
        usage: {
          async addCounts(day: string, counts: readonly DownloadCount[]) {
            await gate;
            if (failOn?.(day)) throw new Error(`database down for ${day}`);
            writes.push({ day, counts: [...counts] });
          },
        },
      },
    },
  };
}

test('merged counts are summed per user, project and action; zero counts are left out', () => {
  assert.deepEqual(mergeDownloadCounts([tags('u1', 3), tags('u1', 4), tags('u2', 0), tags('u1', 1, 'p2')]), [tags('u1', 7), tags('u1', 1, 'p2')]);
});

test('a tally is written by a flush, one statement per UTC day, and only once', async () => {
  const f = fakeStore();
  const recorder = createUsageRecorder(f);
  recorder.tallyDownloads([tags('u1', 3)], day1);
  recorder.tallyDownloads([tags('u1', 2), tags('u2', 5)], day1);
  recorder.tallyDownloads([tags('u1', 1)], day2);
  assert.equal(f.writes.length, 0, 'a tally waits for its flush');
  await recorder.flushTally();
  assert.deepEqual(f.writes, [
    { day: '2026-11-27', counts: [tags('u1', 5), tags('u2', 5)] },
    { day: '2026-11-28', counts: [tags('u1', 1)] },
  ]);
  await recorder.flushTally();
  assert.equal(f.writes.length, 2, 'nothing is written twice');
});

test('a failed write keeps the counts it could not store: the next flush writes them, added to the ones since', async () => {
  let down = true;
  const f = fakeStore(() => down);
  const recorder = createUsageRecorder(f);
  recorder.tallyDownloads([tags('u1', 3)], day1);
  recorder.tallyDownloads([tags('u1', 1)], day2);
  await assert.rejects(recorder.flushTally(), /database down for 2026-11-27/);
  recorder.tallyDownloads([tags('u1', 4)], day1);
  down = false;
  await recorder.flushTally();
  assert.deepEqual(f.writes.sort((a, b) => a.day.localeCompare(b.day)), [
    { day: '2026-11-27', counts: [tags('u1', 7)] },
    { day: '2026-11-28', counts: [tags('u1', 1)] },
  ]);
});

test('flushes at once: the second waits for the first, and every count is written exactly once', async () => {
  const f = fakeStore();
  let release!: () => void;
  f.hold(new Promise<void>((r) => (release = r)));
  const recorder = createUsageRecorder(f);
  recorder.tallyDownloads([tags('u1', 2)], day1);
  const first = recorder.flushTally();
  recorder.tallyDownloads([tags('u1', 3)], day1);
  const second = recorder.flushTally();
  recorder.tallyDownloads([tags('u1', 4)], day1); // while the first write waits on the database
  const third = recorder.flushTally();
  release();
  await Promise.all([first, second, third]);
  const written = f.writes.flatMap((w) => w.counts).reduce((sum, c) => sum + c.count, 0);
  assert.equal(written, 9, JSON.stringify(f.writes));
});
