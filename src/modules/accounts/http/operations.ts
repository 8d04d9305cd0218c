// The operation docs of the accounts module's routes (src/http/operation-docs.ts): what each
// does, the permission src/modules/accounts/core/ checks (CONTRACT §5), the codes it answers.
import {
  API1_ACCOUNT_PATH as A1, API1_ACCOUNT_ERRORS as ACCOUNT1, API2_ACCOUNT_PATH as A, API2_ACCOUNT_ERRORS as ACCOUNT, INVALID_INPUT as INPUT,
  type OperationTable,
} from '../../../http/operation-docs.ts';

export const ACCOUNT_API1_OPERATIONS: OperationTable = {
  'GET /api/accounts': { does: 'The accounts the caller belongs to.', errors: [] },
  [`GET ${A1}`]: { does: 'One account of the caller.', permission: '`account:account:read` (every account member).', errors: [...ACCOUNT1, 'view-account-forbidden'] },
  [`GET ${A1}/subscriptions`]: {
    does: 'The subscriptions of the account.',
    permission: '`account:subscriptions:read` (owner, administrators, project managers).',
    errors: [...ACCOUNT1, 'list-subscriptions-forbidden'],
  },
};

export const ACCOUNT_API2_OPERATIONS: OperationTable = {
  'GET /api/2/accounts': { does: 'The accounts the caller belongs to, each with its subscriptions and the caller\'s permissions in it.', errors: [] },
  [`GET ${A}`]: { does: 'One account of the caller.', permission: '`account:account:read` (every account member).', errors: [...ACCOUNT, 'view-account-forbidden'] },
  [`GET ${A}/notices`]: {
    does: 'Our extension: notices about how the service is run that the caller should see in this account (the console shows each as a banner); `[]` when there is none. ' +
      'Today one: `mail-not-sent` (no SMTP_URL: invitations and password-reset links are not delivered; an operator reads them with `npm run admin -- outbox`) ' +
      'or `mail-to-log` (MAIL_TO_LOG: they are printed to the service\'s log), for those who may invite users (`account:users:write`).',
    permission: '`account:account:read` (every account member); the mail notice only with `account:users:write`.',
    errors: [...ACCOUNT, 'view-account-forbidden'],
  },
  [`GET ${A}/subscriptions`]: {
    does: 'The subscriptions of the account; `end` only with `account:subscriptions:read-sensitive-infos`, `inviteAccountOwnerInNewProjects` only for the account owner.',
    permission: '`account:subscriptions:read` (owner, administrators, project managers).',
    errors: [...ACCOUNT, 'list-subscriptions-forbidden'],
  },
  [`GET ${A}/subscriptions/{subscriptionRef}`]: {
    does: 'One subscription of the account.',
    permission: '`account:subscriptions:read`.',
    errors: [...ACCOUNT, 'invalid-subscription-urn', 'view-subscription-forbidden', 'subscription-not-found'],
  },
  [`GET ${A}/subscriptions/{subscriptionRef}/usage`]: {
    does: 'Our extension: what the subscription uses of its capacities, as the capacity checks count it: scans and geo images (registered plus live pending uploads), live tags, and bytes against the storage quota (`STORAGE_QUOTA_BYTES`).',
    permission: '`account:subscriptions:read`.',
    errors: [...ACCOUNT, 'invalid-subscription-urn', 'view-subscription-forbidden', 'subscription-not-found'],
  },
  [`PATCH ${A}/subscriptions/{subscriptionRef}`]: {
    does: 'Renames a subscription, or sets `inviteAccountOwnerInNewProjects` (the account owner is then invited to every new project of it).',
    permission: '`account:subscriptions:update-name` for `name`; `inviteAccountOwnerInNewProjects`: the account owner only (`account:account:update-owner`).',
    errors: [...ACCOUNT, INPUT, 'invalid-subscription-urn', 'update-subscription-forbidden', 'subscription-not-found'],
  },
};
