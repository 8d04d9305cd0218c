// API 2's usage report (vendor getUsageReport): actions per UTC day, per user, per project on
// one subscription, from the counters migration 0030's triggers keep (docs/usage.md).
import { DomainError, notFound } from '../../../core/errors.ts';
import { refValue, type EntityRef } from '../../../core/ids/urn.ts';
import { requirePermission, type Actor, type Authorizer } from '../../../core/permissions/authorizer.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { UsageRow, UsageStore } from './ports.ts';
import { findByRef } from '../../../core/ids/refs.ts';

/** The longest period one report covers: 3,660 days (ten years; the vendor's own sample asks for more than one year). */
export const MAX_REPORT_DAYS = 3660;
/** Without `from`, a report starts 30 days before its last day (`until`, default today, UTC). */
export const DEFAULT_REPORT_DAYS = 30;

export interface UsageReportQuery {
  from?: string;
  until?: string;
  includeDeleted?: boolean;
}

/** The usage report of a subscription. */
export interface UsageReports {
  /**
   * Needs `account:subscriptions:read` and `account:users:read` (it names the users); refused
   * with 403 `usage-report-unavailable` when the deployment hides privacy data.
   */
  getUsageReport(actor: Actor, accountRef: EntityRef, subscriptionRef: EntityRef, query: UsageReportQuery): Promise<UsageRow[]>;
}

const DAY_MS = 86_400_000;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** The report's inclusive period, checked: from ≤ until, at most MAX_REPORT_DAYS days. */
export function reportPeriod(query: UsageReportQuery, today: Date): { from: string; until: string } {
  const until = query.until ?? dayOf(today);
  const from = query.from ?? dayOf(new Date(Date.parse(until) - (DEFAULT_REPORT_DAYS - 1) * DAY_MS));
  const days = (Date.parse(until) - Date.parse(from)) / DAY_MS + 1;
  if (!(days >= 1)) throw new DomainError('invalid', 'invalid-input', '`from` must not be after `until`', { from, until });
  if (days > MAX_REPORT_DAYS) throw new DomainError('invalid', 'invalid-input', `A report covers at most ${MAX_REPORT_DAYS} days`, { from, until });
  return { from, until };
}

export function createUsageReports(deps: {
  store: UsageStore; clock: Clock; authorizer: Authorizer; hidePrivacyData: boolean;
  /** Before the counters are read: this node's tallied downloads written (download-counts.ts). */
  beforeReport?: () => Promise<void>;
}): UsageReports {
  const { store, clock, authorizer, hidePrivacyData, beforeReport } = deps;
  return {
    async getUsageReport(actor, accountRef, subscriptionRef, query) {
      const scope = await authorizer.account(actor, accountRef);
      requirePermission(scope.permissions, ['account:subscriptions:read', 'account:users:read'], 'view-report-forbidden');
      if (hidePrivacyData) throw new DomainError('forbidden', 'usage-report-unavailable', 'The usage report is unavailable: this deployment hides privacy data (HIDE_PRIVACY_DATA)');
      const { subscriptions, usage } = store.repos;
      const s = await findByRef(subscriptions, subscriptionRef);
      if (!s || s.accountId !== scope.account.id) throw notFound('subscription', refValue(subscriptionRef));
      const period = reportPeriod(query, clock.now());
      await beforeReport?.();
      return usage.report({ subscriptionId: s.id, ...period, includeDeleted: query.includeDeleted === true });
    },
  };
}
