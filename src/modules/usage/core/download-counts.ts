// Downloads in the usage report (docs/usage.md "What is counted"): the use cases that sign a
// download URL report it here, since no row of theirs is written for a trigger to count; reads
// on a hot path (a tag list's tags) add to a tally this node writes every few seconds.
import type { DownloadCount, UsageRecorder } from './recorder.ts';
import type { UsageRepo } from './ports.ts';

/** What counts of one row of the counters share: the user, the project and the action. */
const keyOf = (c: DownloadCount) => `${c.userId}|${c.projectId}|${c.action}`;

/** Counts of the same (user, project, action) summed; zero counts left out. */
export function mergeDownloadCounts(counts: readonly DownloadCount[]): DownloadCount[] {
  const merged = new Map<string, DownloadCount>();
  for (const c of counts) {
    if (!(c.count > 0)) continue;
    const key = keyOf(c);
    const seen = merged.get(key);
    merged.set(key, seen ? { ...seen, count: seen.count + c.count } : { ...c });
  }
  return [...merged.values()];
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The counts of the tally not yet written, by UTC day, each day's by (user, project, action):
 * an add increments in place (it runs on every whole tag-list read: no copy of what is held).
 */
export class DownloadTally {
  private byDay = new Map<string, Map<string, DownloadCount>>();

  /** Adds counts to the day of `at`, or to `day` when given (counts given back after a failed write). */
  add(counts: readonly DownloadCount[], at: Date | string): void {
    const day = typeof at === 'string' ? at : dayOf(at);
    let held = this.byDay.get(day);
    for (const c of counts) {
      if (!(c.count > 0)) continue;
      held ??= this.byDay.set(day, new Map()).get(day)!;
      const key = keyOf(c);
      const seen = held.get(key);
      if (seen) seen.count += c.count;
      else held.set(key, { ...c });
    }
  }

  get empty(): boolean {
    return this.byDay.size === 0;
  }

  /** Everything held, by day, which the tally no longer holds (given back with `add` if writing it fails). */
  take(): Map<string, DownloadCount[]> {
    const taken = new Map<string, DownloadCount[]>([...this.byDay].map(([day, held]) => [day, [...held.values()]]));
    this.byDay = new Map();
    return taken;
  }
}

export interface UsageRecording extends UsageRecorder {
  /** Writes the tally (one statement per day in it); counts a failed write could not store go back to the tally, and the failure is thrown. */
  flushTally(): Promise<void>;
}

export function createUsageRecorder(deps: { store: { readonly repos: { usage: Pick<UsageRepo, 'addCounts'> } } }): UsageRecording {
  const { store } = deps;
  const tally = new DownloadTally();
  /** The write under way: a report waits for it, and two flushes never write the same counts. */
  let flushing: Promise<void> = Promise.resolve();

  async function writeTally(): Promise<void> {
    const taken = tally.take();
    for (const [day, counts] of taken) {
      try {
        await store.repos.usage.addCounts(day, counts);
        taken.delete(day);
      } catch (e) {
        for (const [left, rest] of taken) tally.add(rest, left);
        throw e;
      }
    }
  }

  return {
    async recordDownloads(counts, at) {
      const merged = mergeDownloadCounts(counts);
      if (merged.length) await store.repos.usage.addCounts(dayOf(at), merged);
    },
    tallyDownloads(counts, at) {
      tally.add(counts, at);
    },
    flushTally() {
      // After the write under way (its failure is its caller's): then whatever came since.
      const next = () => (tally.empty ? undefined : writeTally());
      flushing = flushing.then(next, next);
      return flushing;
    },
  };
}
