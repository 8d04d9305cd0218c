// What the usage module records that no row's trigger can see (docs/usage.md): a signed
// download URL changes no table, so the use cases that issue one report it here. The usage
// module implements it (src/modules/usage); the kernel's files module, connect and share
// links call it.

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
}
