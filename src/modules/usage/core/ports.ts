// The usage module's repository port (its SQL: ../postgres/usage-repo.ts; the counters are
// written by migration 0030's triggers, in the transaction of each counted action).
import type { DownloadCount } from './recorder.ts';
import type { SubscriptionRecord } from '../../accounts/index.ts';

/** One report row: what one user did on one project on one UTC day. */
export interface UsageRow {
  /** YYYY-MM-DD (UTC). */
  date: string;
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  projectId: string;
  projectName: string;
  scansUploaded: number;
  scansDownloaded: number;
  images360Uploaded: number;
  cropsDownloaded: number;
  meshesCreated: number;
  tagsUploaded: number;
  tagsDownloaded: number;
}

export interface UsageQuery {
  subscriptionId: string;
  /** Inclusive UTC days, YYYY-MM-DD. */
  from: string;
  until: string;
  /** Also the projects deleted since (in the trash or permanently). */
  includeDeleted: boolean;
}

export interface UsageRepo {
  /** The rows of a subscription between two days, by day, then user e-mail, then project name. */
  report(q: UsageQuery): Promise<UsageRow[]>;
  /** Adds counts to the counters of one UTC day (YYYY-MM-DD), under each project's subscription and name. */
  addCounts(day: string, counts: readonly DownloadCount[]): Promise<void>;
}

export interface UsageRepos {
  usage: UsageRepo;
}

/** What the report reads: its counters and the kernel's subscriptions. */
export interface UsageStore {
  readonly repos: UsageRepos & { subscriptions: { byId(id: string): Promise<SubscriptionRecord | null>; byApi1Id(api1Id: string): Promise<SubscriptionRecord | null> } };
}
