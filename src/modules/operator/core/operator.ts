// The operator surface's use cases (CONTRACT §3): reset, outbox, tokens without a browser.
import { eventOf } from '../../../core/events/domain-events.ts';
import { DomainError } from '../../../core/errors.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { TokenResponse, TokenService } from '../../oauth/index.ts';
import type { ApplySeed, SeedDocument, SeedResult } from './seed.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { MailRepos } from '../../mail/index.ts';

/** The operator surface's use cases (CONTRACT §3): reset, outbox, tokens without a browser. */
export interface Operator {
  /** Deletes every datum and blob, every cache on every node, then re-applies SEED_FILE. */
  reset(): Promise<{ seeded: SeedResult | null }>;
  /** The mails in the outbox, newest first (at most 1,000). */
  outbox(): Promise<{ to: string; subject: string; text: string; links: string[]; sentAt: string }[]>;
  /** A token pair for the user with this e-mail, without the browser step. */
  issueTokens(email: string): Promise<TokenResponse>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const OPERATOR_STORE = storeUseOf<Repos & MailRepos>()({ reads: ['outbox', 'users'], writes: ['admin', 'events'] });

export function createOperator(deps: {
  // Reads the outbox and users outside a transaction. The reset is the other deliberate
  // whole-store write (with the seeder): repos.admin.deleteAllData empties every table in one
  // statement, so its transaction is handed the admin repository and the events only.
  store: SliceOf<typeof OPERATOR_STORE, Repos & MailRepos>;
  clock: Clock;
  tokens: TokenService;
  applySeed: ApplySeed;
  /** The SEED_FILE document, re-applied after a reset. */
  loadSeedFile: () => Promise<SeedDocument | null>;
  /** Other stores to empty on reset (object storage, caches). */
  onReset?: (() => Promise<void>)[];
}): Operator {
  const { clock, tokens, applySeed } = deps;
  const store = sliceOf(deps.store, OPERATOR_STORE);
  return {
    async reset(): Promise<{ seeded: SeedResult | null }> {
      await store.transaction(async (repos) => {
        await repos.admin.deleteAllData();
        await repos.events.publish(eventOf('service.reset', null, 'service', {}), clock.now()); // every cache on every node
      });
      for (const fn of deps.onReset ?? []) await fn();
      const doc = await deps.loadSeedFile();
      return { seeded: doc ? await applySeed(doc) : null };
    },
    async outbox() {
      const mails = await store.repos.outbox.list(1000);
      return mails.map((m) => ({
        to: m.to,
        subject: m.subject,
        text: m.text,
        links: m.links,
        sentAt: m.sentAt.toISOString(),
      }));
    },
    async issueTokens(email: string) {
      const user = await store.repos.users.byEmail(email);
      if (!user) throw new DomainError('not-found', 'user-email-not-found', `No user with e-mail ${email}`, { email });
      return tokens.issueForUser(user.id);
    },
  };
}
