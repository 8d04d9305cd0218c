// Downloads in the usage report (docs/usage.md "What is counted"): the use cases that sign a
// download URL report it here, since no row of theirs is written for a trigger to count.
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

export function createUsageRecorder(deps: { store: { readonly repos: { usage: Pick<UsageRepo, 'addCounts'> } } }): UsageRecorder {
  const { store } = deps;
  return {
    async recordDownloads(counts, at) {
      const merged = mergeDownloadCounts(counts);
      if (merged.length) await store.repos.usage.addCounts(at.toISOString().slice(0, 10), merged);
    },
  };
}
