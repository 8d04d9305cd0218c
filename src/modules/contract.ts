// The module contract (docs/architecture.md "Adding a module"): everything one feature module
// brings to the node, in one typed value that its src/modules/<m>/module.ts exports and
// src/module-list.ts lists. The shared registries are assembled from the list
// (src/modules/registries.ts): the composition order (src/compose.ts), the repositories bound
// to each executor (src/adapters/postgres/store.ts), the routes (src/http/route-modules.ts),
// the operation docs (src/http/openapi.ts), the invalidation rows of the events, and the
// error catalogue. Nobody edits a shared table to add a module.
//
// The type-level halves (what the core type-checks) are declared by the module's core
// through TypeScript's declaration merging, so the shared kernel never imports a module:
// its events extend `ModuleEventData` (src/core/events/domain-events.ts), its error codes
// `ModuleErrorCodes` (src/core/error-codes.ts). src/modules/registries.ts checks at compile time
// that every merged event has its invalidation row and every merged code its catalogue row.
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { FeatureModule } from '../core/modules.ts';
import type { Sql } from '../adapters/postgres/sql.ts';
import type { ErrorCodeEntry, ModuleErrorCodes } from '../core/error-codes.ts';
import type { DomainEventOf, ModuleEventData } from '../core/events/domain-events.ts';
import type { EventPublishing } from '../core/ports/events.ts';
import type { OperationTable } from '../http/operation-docs.ts';
import type { Env, KernelConfig } from '../kernel-config.ts';

/**
 * A module's routes in one API: added to that API's plugin (authenticated and rate limited
 * there, under /api or /api/2). `use` is the node's use cases (src/compose.ts Core); a
 * route file names the ones it calls in its own parameter type.
 */
export type ApiRoutes<Use = any> = (app: FastifyInstance, use: Use) => void;

/** A module's routes outside the two APIs (pages, signed blob URLs, the connect surface, the operator API). */
export interface OtherRoutes<Use = any> {
  plugin: (use: Use) => FastifyPluginAsync;
  /** Browser pages: registered in a context of their own that parses form bodies and cookies (nowhere else does). */
  browser?: boolean;
  prefix?: string;
}

export interface RouteRows<Use = any> {
  api1?: ApiRoutes<Use>;
  api2?: ApiRoutes<Use>;
  other?: OtherRoutes<Use>;
}

/** A module's SQL repositories: each bound to the executor it is given (the pool, or one transaction; src/adapters/postgres/sql.ts). */
export type RepositoryFactories<R> = { readonly [K in keyof R]: (sql: Sql) => R[K] };

/** Which cache scopes (src/core/events/invalidation.ts cacheScope) an event of the module makes stale; often none. */
export type InvalidationRows<E extends string> = {
  readonly [K in E]: K extends keyof ModuleEventData ? (event: DomainEventOf<K>) => readonly string[] : never;
};

/** One setting of a module: a row of the README's configuration table (Markdown), generated from the rows (`npm run docs:settings`). */
export interface ModuleSetting {
  /** The environment variable. */
  env: string;
  /** Its default, as the table shows it (`30`, unset, off). */
  default: string;
  /** What it does, its range and where it is documented. */
  does: string;
}

/**
 * A module's settings: its rows and their reader. src/config.ts reads the kernel's settings,
 * then each module's in the list's order, and merges what each reader returns into the node's
 * Config (a key given twice stops the start); the module's needs name the keys it reads.
 */
export interface ModuleSettings<S extends object = object> {
  readonly rows: readonly ModuleSetting[];
  /**
   * Reads the rows' variables (and no other: test/unit/module-settings.test.ts) with the value
   * readers of src/kernel-config.ts; `node` is the kernel's settings (HOST, PUBLIC_URL,
   * SANDBOX…). A bad value throws ConfigError naming the variable.
   */
  read(env: Env, node: KernelConfig): S;
}

export interface ModuleContract<
  Needs = any,
  Offers = any,
  Repos = any,
  Events extends string = never,
  Codes extends string = never,
  Settings extends object = Record<never, never>,
> {
  /** Its folder under src/modules, in errors and docs. */
  readonly name: string;
  /** Its use cases, jobs, tasks and seed extensions, and what it needs to build them (src/core/modules.ts). */
  readonly feature: FeatureModule<Needs, Offers>;
  /** Its repositories by name: every transaction's repos carry them (its core declares the port types). */
  readonly repositories?: RepositoryFactories<Repos>;
  /** Its HTTP routes, by API. */
  readonly routes?: RouteRows;
  /** The operation docs of its routes (permission, codes), keyed "METHOD /path" as in the OpenAPI documents. */
  readonly operations?: { readonly api1?: OperationTable; readonly api2?: OperationTable };
  /** The invalidation row of each event type its core declares (ModuleEventData). */
  readonly invalidation?: InvalidationRows<Events>;
  /** The catalogue rows of the error codes its core declares (ModuleErrorCodes). */
  readonly errorCodes?: { readonly [C in Codes]: C extends keyof ModuleErrorCodes ? ModuleErrorCodes[C] & ErrorCodeEntry : never };
  /**
   * How every event of the node is published, when the module must write with it in the same
   * statement (the webhooks module: one delivery per endpoint in the event's own INSERT). At
   * most one module of the list gives it (src/modules/registries.ts refuses a second).
   */
  readonly publishing?: EventPublishing<any>;
  /** Its settings: the rows of the README's configuration table and their reader (the values join the node's Config). */
  readonly settings?: ModuleSettings<Settings>;
  /**
   * Steps every request passes, added to the root of the app before any route (src/http/app.ts
   * calls each once at build time). Rare and costly on the hot path: a module adds a hook
   * only when its feature is on (the sandbox module: with OPERATOR_TOKEN or SANDBOX=1).
   */
  readonly requestHooks?: RequestHooks;
}

/** Adds a module's root hooks to the app; `use` is the node's use cases and adapters (src/compose.ts Core). */
export type RequestHooks<Use = any> = (app: FastifyInstance, use: Use) => void;

/** A row of the module list: a module with its whole contract, or (until it moves) a descriptor of src/core/<m>. */
export type ModuleEntry = ModuleContract<any, any, any, any, any, any> | FeatureModule<any, any>;

export const isContract = (m: ModuleEntry): m is ModuleContract<any, any, any, any, any, any> => 'feature' in m;

/** Declares a module's contract (an identity function: it keeps the types the list folds over). */
export const defineModule = <N, O, R = Record<never, never>, E extends string = never, C extends string = never, S extends object = Record<never, never>>(
  m: ModuleContract<N, O, R, E, C, S>,
): ModuleContract<N, O, R, E, C, S> => m;

/** The values a module's settings reader gives (its contract's `Settings`). */
export type SettingsOf<T> = T extends ModuleSettings<infer S> ? S : never;
