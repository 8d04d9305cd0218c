// Downloads in the usage report (docs/usage.md "What is counted"): the use cases that sign a
// download URL report it here, since no row of theirs is written for a trigger to count; reads
// on a hot path (a tag list's tags) add to a tally this node writes every few seconds.
import type { DownloadCount, UsageRecorder } from '../../../core/ports/usage.ts';
import type { UsageRepo } from './ports.ts';

/** Counts of the same (user, project, action) summed; zero counts left out. */
export function mergeDownloadCounts(counts: readonly DownloadCount[]): DownloadCount[] {
  const merged = new Map<string, DownloadCount>();
  for (const c of counts) {
    if (!(c.count > 0)) continue;
    const key = `${c.userId}|${c.projectId}|${c.action}`;
    const seen = merged.get(key);
    merged.set(key, seen ? { ...seen, count: seen.count + c.count } : { ...c });
  }
  return [...merged.values()];
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** The counts of the tally not yet written, by UTC day. */
export class DownloadTally {
  private byDay = new Map<string, DownloadCount[]>();

  add(counts: readonly DownloadCount[], at: Date): void {
    const day = dayOf(at);
    const kept = this.byDay.get(day);
    this.byDay.set(day, mergeDownloadCounts(kept ? [...kept, ...counts] : counts));
  }

  get empty(): boolean {
    return this.byDay.size === 0;
  }

  /** Everything held, which the tally no longer holds (given back with `add` if writing it fails). */
  take(): Map<string, DownloadCount[]> {
    const taken = this.byDay;
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
        for (const [left, rest] of taken) tally.add(rest, new Date(`${left}T00:00:00Z`));
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
      flushing = flushing.catch(() => undefined).then(() => (tally.empty ? undefined : writeTally()));
      return flushing;
    },
  };
}
