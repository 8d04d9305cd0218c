// The mail to an account's owner when the service disabled one of its webhook endpoints
// because the user who registered it may no longer manage the account's webhooks
// (creator-access.ts). The endpoint is disabled in the transaction of that change, which is
// not the webhooks module's (a role change, a removal), so the mail is written by this
// pass, on every node every WEBHOOKS_RELAY_INTERVAL: each notice taken by one node, in the
// transaction that writes its mail to the outbox (a rollback leaves it pending).
import type { PeriodicTask } from '../../../core/ports/background.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { MailRepos, SendMail } from '../../mail/index.ts';
import type { AccountsRepos } from '../../accounts/index.ts';
import type { WebhooksRepos } from './ports.ts';

/** Notices one pass writes at most (the rest wait for the next pass). */
const NOTICES_PER_PASS = 50;

export interface WebhookOwnerNotices {
  /** One pass: mails the owners of the endpoints disabled for their creator; answers how many. */
  run(): Promise<number>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const WEBHOOK_OWNER_NOTICES_STORE = storeUseOf<Repos & AccountsRepos & MailRepos & WebhooksRepos>()({ reads: [], writes: ['accounts', 'outbox', 'users', 'webhooks'] });

export function createWebhookOwnerNotices(deps: {
  store: SliceOf<typeof WEBHOOK_OWNER_NOTICES_STORE, Repos & AccountsRepos & MailRepos & WebhooksRepos>;
  sendMail: SendMail;
  publicUrl: string;
}): WebhookOwnerNotices {
  const { sendMail, publicUrl } = deps;
  const store = sliceOf(deps.store, WEBHOOK_OWNER_NOTICES_STORE);
  return {
    run: () =>
      store.transaction(async (repos) => {
        const endpoints = await repos.webhooks.takeOwnerNotices(NOTICES_PER_PASS);
        for (const endpoint of endpoints) {
          const account = await repos.accounts.byId(endpoint.accountId);
          const owner = account && (await repos.users.byId(account.ownerId));
          if (!account || !owner) continue;
          const creator = endpoint.createdBy ? await repos.users.byId(endpoint.createdBy) : null;
          await sendMail(repos, {
            to: owner.email,
            subject: `Webhook disabled in ${account.name}: its creator lost access`,
            text:
              `The webhook endpoint ${endpoint.url} of the account ${account.name} was disabled: the user who registered it` +
              `${creator ? ` (${creator.email})` : ''} may no longer manage the account's webhooks (removed from the account, or a role without that right).\n` +
              `It receives nothing until an owner or administrator enables it again (PATCH ${publicUrl}/api/2/accounts/${account.id}/webhooks/${endpoint.id} ` +
              `with {"enabled": true}), and then answers for it. Its pending deliveries are kept.\n`,
            links: [],
          });
        }
        return endpoints.length;
      }),
  };
}

/** Every node's notice pass. */
export function webhookOwnerNoticePasses(notices: WebhookOwnerNotices, intervalSeconds: number): PeriodicTask {
  return {
    name: 'webhook-owner-notices', everySeconds: intervalSeconds, atStart: true, run: () => notices.run(),
    failure: { level: 'error', message: `webhook owner notices failed; next pass in ${intervalSeconds} s` },
  };
}
