// The HTTP layer's face (issue 28): the one type src/http receives from the wiring, so
// src/http imports nothing from src/compose.ts (eslint.config.js) and the composition imports
// nothing from src/http. It is not under src/core: it names the slices' offers
// (src/modules/registries.ts), the settings (src/config.ts) and telemetry types of the
// adapters, which the kernel never imports (docs/architecture.md "The HTTP layer's face").
import type { Config } from './config.ts';
import type { Metrics } from './adapters/telemetry/prometheus.ts';
import type { Logger } from './core/ports/telemetry.ts';
import type { CacheRegistry } from './core/cache/registry.ts';
import type { OffsetClock } from './adapters/clock/offset-clock.ts';
import type { Probes } from './probes.ts';
import type { Sealed } from './core/modules.ts';
import type { ContractOffers } from './modules/registries.ts';
import type { Authorizer } from './core/permissions/authorizer.ts';
import type { SeedDocument } from './modules/operator/index.ts';
import type { Groups } from './modules/groups/index.ts';
import type { JobRunner } from './modules/jobs/index.ts';
import type { TagLists } from './modules/tags/index.ts';
import type { ListenerState } from './core/ports/events.ts';
import type { ObjectStore } from './core/ports/object-store.ts';

/** What start-up did, for its log lines (src/main.ts). */
export interface StartupFacts {
  migrationsApplied: number;
  migrationsTotal: number;
}

/**
 * What src/http sees of the composed service: each module's use cases, the settings and
 * telemetry, never the store, the signer, the object store or the id generator
 * (docs/architecture.md "The HTTP layer's face"). The modules under src/modules add their
 * offers through ContractOffers (src/modules/registries.ts); src/core's modules are listed
 * here. Route files are typed by it, or narrower (`Pick<Services, …>`), so that reaching the
 * store from src/http fails to compile (test/types/http-face.ts). The projects' `ownedProjects`
 * is left out: a rule the users module runs in its own transactions, not a use case.
 */
export interface Services
  extends Omit<ContractOffers, 'ownedProjects'> {
  // Adapters and process facts.
  config: Config;
  version: string;
  logger: Logger;
  metrics: Metrics;
  /** The node's caches by name (GET /metrics); the tag routes make theirs here. */
  caches: CacheRegistry;
  startup: StartupFacts;
  /** The clock every use case reads; the sandbox clock moves it. */
  clock: OffsetClock;
  /** Reads SEED_FILE afresh (null when unset); throws a 400-kind error naming the file. */
  loadSeedFile(): Promise<SeedDocument | null>;
  // The kernel modules' offers come from their own types (UsersOffers, …) and the slices'
  // from their contracts (ContractOffers); the members below are those of kernel modules
  // without an offers type yet.
  // permissions, groups
  authorizer: Authorizer;
  groups: Groups;
  // tags, jobs (files, webhooks: their contracts' offers, ContractOffers)
  tagLists: TagLists;
  jobRunner: JobRunner;
  /** The feature modules built, in order, with what each declared (docs/architecture.md "Module descriptors"). */
  modules: Sealed<unknown>['modules'];
  /** GET /healthz and GET /readyz, and the drain (src/probes.ts). */
  health: Probes['health'];
  ready: Probes['ready'];
  beginDrain(): void;
  isDraining(): boolean;
  /** How this node hears other nodes' events (GET /readyz, GET /metrics); null on the embedded database. */
  eventsListener(): ListenerState | null;
  /** Stops the periodic tasks and background jobs (after the pass or job in hand), then closes storage and the database (the PGlite lock is released). */
  close(): Promise<void>;
}


/**
 * What the HTTP app is built from: the face and the object store, which the local-disk
 * store's signed blob URLs (src/modules/files/http/blobs.ts) serve files from. Only src/http/app.ts and
 * the routes table take it; every route file takes the face or less.
 */
export interface HttpServices extends Services {
  objectStore: ObjectStore;
}
