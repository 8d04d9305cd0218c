// The limits an upload or a copy must fit in (CONTRACT §7, spec "Limits", docs/security.md):
// the subscription's scan and geo-image capacities, its storage quota, and in the sandbox
// the 20 scans per user. Checked in the caller's transaction, under the subscription's lock.
import { DomainError, notFound } from '../../../core/errors.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { FilesRepos } from '../../../core/ports/file-repositories.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { Category } from './formats.ts';
import { FILES } from './upload-items.ts';
import type { AccountsRepos } from '../../accounts/index.ts';

const capacityError = (category: 'scan' | 'geoImage', values: Record<string, string>) =>
  new DomainError(
    'invalid',
    category === 'scan' ? 'capacity-exceeded-scan' : 'capacity-exceeded-geoimage',
    `The ${category === 'scan' ? 'scan' : 'geo image'} capacity is exceeded`,
    values,
  );

const quotaError = (subscriptionId: string, quotaBytes: number) =>
  new DomainError('invalid', 'storage-quota-exceeded', `The subscription's storage quota (${quotaBytes} bytes) is exceeded`, {
    subscriptionId, quotaBytes,
  });

export interface CapacityRequest {
  subscriptionId: string;
  /** Whose uploads count against the sandbox's scans per user. */
  userId: string;
  /** Files not yet counted, per category (signing, copying); registering converts counted pending rows and adds none. */
  adding: ReadonlyMap<Category, number>;
  /** The categories whose capacities are checked. */
  touched: ReadonlySet<Category>;
  /** Bytes not yet counted. */
  addingBytes: number;
}

/** Throws the spec's 400 when the request does not fit; call inside the transaction that writes. */
export type CheckCapacities = (repos: Pick<Repos & FilesRepos & AccountsRepos, 'files' | 'subscriptions' | 'users'>, request: CapacityRequest) => Promise<void>;

export function createCapacityCheck(deps: {
  clock: Clock;
  /** Bytes per subscription, every category (STORAGE_QUOTA_BYTES). */
  storageQuotaBytes: number;
  sandbox: boolean;
}): CheckCapacities {
  /**
   * Capacities (CONTRACT §7): registered files plus live pending uploads of the
   * subscription's projects, under a row lock on the subscription (so concurrent signers
   * and registrars on every node count one after the other). Registering still refuses
   * when the capacity was lowered meanwhile. The same lock covers the storage quota
   * (docs/security.md): the bytes of every registered file and live pending upload of the
   * subscription, whatever the category, plus `addingBytes`, at most STORAGE_QUOTA_BYTES.
   */
  return async (repos, { subscriptionId, userId, adding, touched, addingBytes }) => {
    const now = deps.clock.now();
    await repos.files.lockSubscription(subscriptionId);
    if ((await repos.files.bytesInSubscription(subscriptionId, now)) + addingBytes > deps.storageQuotaBytes) {
      throw quotaError(subscriptionId, deps.storageQuotaBytes);
    }
    const relevant = (['scan', 'geoImage'] as const).filter((c) => touched.has(c));
    if (!relevant.length) return;
    const sub = await repos.subscriptions.byId(subscriptionId);
    if (!sub) throw notFound('subscription', subscriptionId);
    for (const c of relevant) {
      const capacity = c === 'scan' ? sub.scanCapacity : sub.geoImageCapacity;
      const n = await repos.files.countInSubscription(subscriptionId, c, now);
      if (n.registered + n.pending + (adding.get(c) ?? 0) > capacity) throw capacityError(c, { subscriptionId });
    }
    if (deps.sandbox && touched.has('scan')) {
      await repos.users.lock(userId);
      const n = await repos.files.countByUser(userId, 'scan', now);
      if (n.registered + n.pending + (adding.get('scan') ?? 0) > FILES.sandboxScansPerUser) {
        throw capacityError('scan', { userId });
      }
    }
  };
}

/** Files counted per category. */
export function countByCategory<T>(items: readonly T[], categoryOf: (item: T) => Category): Map<Category, number> {
  const adding = new Map<Category, number>();
  for (const i of items) adding.set(categoryOf(i), (adding.get(categoryOf(i)) ?? 0) + 1);
  return adding;
}
