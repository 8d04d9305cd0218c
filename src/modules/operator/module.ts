// The operator module's contract (src/modules/contract.ts): the seeder (with every module's
// seed extensions), reset and the operator's other use cases, the operator token's check
// (only with OPERATOR_TOKEN), and in sandbox mode the shared clock offset, loaded before
// the node serves and followed by a periodic task; its routes under /_operator, its event
// (with the caches it makes stale) and error codes. The seed document's schema, which
// SEED_FILE's reader (src/seed-file.ts) checks too, is exported here.
import type { FeatureModule } from '../../core/modules.ts';
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { AdjustableClock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { PasswordHasher } from '../../core/ports/crypto.ts';
import type { ObjectStore } from '../../core/ports/object-store.ts';
import { cacheScope } from '../../core/events/invalidation.ts';
import type { OauthRepos, TokenService } from '../oauth/index.ts';
import type { AccountsRepos } from '../accounts/index.ts';
import type { MailRepos } from '../mail/index.ts';
import { defineModule } from '../contract.ts';
import { createSeeder, type ApplySeed, type SeedAccountExtension, type SeedDocument } from './core/seed.ts';
import { createOperator, type Operator } from './core/operator.ts';
import { createOperatorAuth, type AuthenticateOperator } from './core/operator-auth.ts';
import { createSandboxClock, followSandboxClock, type SandboxClock } from './core/sandbox-clock.ts';
import type { OperatorEventType } from './core/events.ts';
import { OPERATOR_ERROR_CODES } from './core/errors.ts';
import { operatorRoutes } from './http/routes.ts';

export { SeedDocument as SEED_DOCUMENT_SCHEMA } from './http/schemas.ts';

export interface OperatorNeeds {
  store: Store<Repos & AccountsRepos & MailRepos & OauthRepos>;
  clock: AdjustableClock;
  ids: Ids;
  hasher: PasswordHasher;
  objectStore: ObjectStore;
  tokens: TokenService;
  /** Reads SEED_FILE afresh (src/seed-file.ts); re-applied after a reset. */
  loadSeedFile: () => Promise<SeedDocument | null>;
  /** Every module's seed extensions (src/core/modules.ts, Contributions). */
  seedExtensions: readonly SeedAccountExtension[];
  config: { sandbox: boolean; operatorToken: string | undefined };
}

export interface OperatorOffers {
  applySeed: ApplySeed;
  operator: Operator;
  /** The operator token's check; null without OPERATOR_TOKEN (every /_operator path answers 404). */
  authenticateOperator: AuthenticateOperator | null;
  sandboxClock: SandboxClock;
}

const feature: FeatureModule<OperatorNeeds, OperatorOffers> = {
  name: 'operator',
  create: ({ store, clock, ids, hasher, objectStore, tokens, loadSeedFile, seedExtensions, config }) => {
    const applySeed = createSeeder({ store, clock, ids, hasher, extensions: seedExtensions });
    const sandboxClock = createSandboxClock({ store, clock });
    return {
      offers: {
        applySeed,
        // A reset deletes every blob too (CONTRACT §3), whichever store holds them.
        operator: createOperator({ store, clock, tokens, applySeed, loadSeedFile, onReset: [async () => objectStore.deleteAll?.()] }),
        authenticateOperator: config.operatorToken ? createOperatorAuth({ store, clock, expected: config.operatorToken }) : null,
        sandboxClock,
      },
      tasks: config.sandbox ? [followSandboxClock(sandboxClock)] : [],
      start: async () => {
        if (config.sandbox) await sandboxClock.load();
      },
    };
  },
};

export const operatorModule = defineModule<OperatorNeeds, OperatorOffers, Record<never, never>, OperatorEventType, keyof typeof OPERATOR_ERROR_CODES>({
  name: 'operator',
  feature,
  routes: { other: { plugin: operatorRoutes, prefix: '/_operator' } },
  invalidation: {
    // Members, subscriptions, roles and groups may all have changed: every cache of the account, and its project lists.
    'account.seeded': (e) => [cacheScope.account(e.data.accountId), cacheScope.projectLists(e.data.accountId)],
  },
  errorCodes: OPERATOR_ERROR_CODES,
});
