// What the usage module records that no row's trigger can see (docs/usage.md): a signed
// download URL changes no table, so the use cases that issue one report it here. The usage
// module implements it (download-counts.ts) and offers it as `usageRecorder`; the files,
// connect, tags and share-link modules call it through the module's face.

/** A download action of the usage report: scans (scan files), crops (a crop's blob), tags. */
export type DownloadAction = 'scans-downloaded' | 'crops-downloaded' | 'tags-downloaded';

/** `count` downloads of one kind, by one user, on one project. */
export interface DownloadCount {
  projectId: string;
  userId: string;
  action: DownloadAction;
  count: number;
}

export interface UsageRecorder {
  /**
   * Adds the counts to the day of `at` (UTC), in one statement; counts of 0 are left out.
   * Called after the URLs are signed: nothing else is written with them, so no transaction.
   */
  recordDownloads(counts: readonly DownloadCount[], at: Date): Promise<void>;
  /**
   * Adds the counts to this node's tally, written within 5 seconds (a periodic task
   * of the usage module), when a report is asked of this node, and at close: for reads on a
   * hot path (a tag list's tags), where a write per request would cost more than the read.
   * Never throws and never waits; a node killed with -9 loses at most one period's counts.
   */
  tallyDownloads(counts: readonly DownloadCount[], at: Date): void;
}
