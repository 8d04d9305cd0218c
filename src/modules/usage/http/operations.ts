// The operation docs of the usage module's route (src/http/operation-docs.ts).
import type { OperationTable } from '../../../http/operation-docs.ts';

export const USAGE_OPERATIONS: OperationTable = {
  'GET /api/2/accounts/{accountRef}/subscriptions/{subscriptionRef}/usage-report': {
    does: 'Actions per UTC day, per user, per project of the subscription, between `from` and `until` (inclusive days; default: the 30 days up to today; ' +
      'at most 3,660 days). Counted in the transaction of each action: scans and 360 (geo-referenced) images registered, tags created, meshes exported. ' +
      'Downloads are not counted yet (0). Projects deleted since (trash or permanent) only with `includeDeleted=true`.',
    permission: '`account:subscriptions:read` and `account:users:read`.',
    errors: ['invalid-account-urn', 'account-not-found', 'invalid-subscription-urn', 'subscription-not-found', 'invalid-input', 'view-report-forbidden',
      { code: 'usage-report-unavailable', when: 'the deployment hides privacy data (HIDE_PRIVACY_DATA=1)' }],
  },
};
