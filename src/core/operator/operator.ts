// The operator surface's use cases (CONTRACT §3): reset, outbox, tokens without a browser.
import { eventOf } from '../events/domain-events.ts';
import { DomainError } from '../errors.ts';
import type { Store } from '../ports/repositories.ts';
import type { Clock } from '../ports/clock.ts';
import type { TokenService } from '../oauth/token-service.ts';
import type { ApplySeed, SeedDocument, SeedResult } from './seed.ts';

export function createOperator(deps: {
  store: Store;
  clock: Clock;
  tokens: TokenService;
  applySeed: ApplySeed;
  /** The SEED_FILE document, re-applied after a reset. */
  loadSeedFile: () => Promise<SeedDocument | null>;
  /** Other stores to empty on reset (object storage, caches). */
  onReset?: (() => Promise<void>)[];
}) {
  const { store, clock, tokens, applySeed } = deps;
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

export type Operator = ReturnType<typeof createOperator>;
