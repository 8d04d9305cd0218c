// The operator module's descriptor (src/core/modules.ts): the seeder (with every module's
// seed extensions), reset and the operator's other use cases, the operator token's check
// (only with OPERATOR_TOKEN), and in sandbox mode the shared clock offset, loaded before
// the node serves and followed by a periodic task.
import type { FeatureModule } from '../modules.ts';
import type { Repos, Store } from '../ports/repositories.ts';
import type { AdjustableClock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { PasswordHasher } from '../ports/crypto.ts';
import type { ObjectStore } from '../ports/object-store.ts';
import type { OauthRepos, TokenService } from '../../modules/oauth/index.ts';
import { createSeeder, type ApplySeed, type SeedAccountExtension, type SeedDocument } from './seed.ts';
import { createOperator, type Operator } from './operator.ts';
import { createOperatorAuth, type AuthenticateOperator } from './operator-auth.ts';
import { createSandboxClock, followSandboxClock, type SandboxClock } from './sandbox-clock.ts';
import type { AccountsRepos } from '../../modules/accounts/index.ts';

export interface OperatorNeeds {
  store: Store<Repos & AccountsRepos & OauthRepos>;
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

export const operatorModule: FeatureModule<OperatorNeeds, OperatorOffers> = {
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
