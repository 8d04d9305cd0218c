// The shared registries, assembled from the module list (src/module-list.ts): nobody edits
// them to add a module. The kernel's own rows stay where they are (src/core/error-codes.ts,
// src/core/events/invalidation.ts, src/http/route-modules.ts, src/http/api*/operation-docs.ts)
// until the modules they describe move under src/modules; each registry below is those rows
// plus the contracts' (a name given twice is an error at load).
//
// Checked at compile time: every module need is supplied by the adapters or a module listed
// above it (composeModules), every event a module's core declares has its invalidation row,
// every error code it declares its catalogue row.
import type { Composition, FeatureModule } from '../core/modules.ts';
import { ERROR_CODES, type ErrorCodeEntry, type ModuleErrorCodes } from '../core/error-codes.ts';
import type { ModuleEventData } from '../core/events/domain-events.ts';
import type { ModuleInvalidation } from '../core/events/invalidation.ts';
import type { OperationTable } from '../http/operation-docs.ts';
import type { StoreModules } from '../adapters/postgres/store.ts';
import { MODULES } from '../module-list.ts';
import { isContract, type ModuleContract, type ModuleEntry, type ModuleSettings, type RequestHooks, type RouteRows } from './contract.ts';

type List = typeof MODULES;
type Entry = List[number];

type FeatureOf<M> = M extends ModuleContract<infer N, infer O, any, any, any, any> ? FeatureModule<N, O> : M extends FeatureModule<any, any> ? M : never;
type NeedsOf<M> = FeatureOf<M> extends FeatureModule<infer N, any> ? N : never;
type OffersOf<M> = FeatureOf<M> extends FeatureModule<any, infer O> ? O : never;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The context after building the list's modules in order from `C`. */
export type Built<C, L> = L extends readonly [infer H, ...infer R] ? Built<C & OffersOf<H>, R> : C;
/** The first module whose needs the context before it does not meet, and the needs missing (never: all are met). */
export type Unmet<C, L> = L extends readonly [infer H, ...infer R]
  ? C extends NeedsOf<H>
    ? Unmet<C & OffersOf<H>, R>
    : { module: H; missing: Exclude<keyof NeedsOf<H>, keyof C> | { [K in keyof NeedsOf<H> & keyof C]: C[K] extends NeedsOf<H>[K] ? never : K }[keyof NeedsOf<H> & keyof C] }
  : never;

/** What the modules under src/modules offer (src/compose.ts Core extends it; src/core's modules are listed there by hand). */
export type ContractOffers = UnionToIntersection<Entry extends infer M ? (M extends ModuleContract<any, infer O, any, any, any, any> ? O : never) : never>;

/** The repositories of the modules under src/modules, by name: every executor of the node's store carries them. */
export type ModuleRepos = UnionToIntersection<Entry extends infer M ? (M extends ModuleContract<any, any, infer R, any, any, any> ? R : never) : never>;

/** The values of the modules' settings, by key (src/config.ts Config is the kernel's settings and these). */
export type ModuleSettingValues = UnionToIntersection<Entry extends infer M ? (M extends ModuleContract<any, any, any, any, any, infer S> ? S : never) : never>;

/**
 * Builds every module of the list, in order, on `composition` (src/compose.ts). A module whose
 * needs are not met by what is built before it is a compile error here, naming it and the
 * needs missing.
 */
export function composeModules<C extends object>(
  composition: Composition<C>,
  ..._check: [Unmet<C, List>] extends [never] ? [] : [unmet: Unmet<C, List>]
): Composition<Built<C, List>> {
  let c: Composition<any> = composition;
  for (const m of MODULES as readonly ModuleEntry[]) c = c.add(isContract(m) ? m.feature : m);
  return c as Composition<Built<C, List>>;
}

const contracts = (MODULES as readonly ModuleEntry[]).filter(isContract);

/** Merges named rows, refusing a name given twice (`where` names the registry in the error). */
function merge<V>(where: string, tables: readonly { owner: string; rows: Readonly<Record<string, V>> | undefined }[]): Record<string, V> {
  const out: Record<string, V> = {};
  const owner: Record<string, string> = {};
  for (const { owner: o, rows } of tables) {
    for (const [name, row] of Object.entries(rows ?? {})) {
      if (Object.hasOwn(out, name)) throw new Error(`${where}: ${name} is given by both ${owner[name]} and ${o}`);
      out[name] = row;
      owner[name] = o;
    }
  }
  return out;
}

/** Each module's settings (rows and reader), in the list's order (src/config.ts reads them; the README's table shows the rows). */
export const MODULE_SETTINGS: readonly { module: string; settings: ModuleSettings }[] = contracts.flatMap((m) => (m.settings ? [{ module: m.name, settings: m.settings as ModuleSettings }] : []));

/** The route rows of the modules under src/modules (src/http/route-modules.ts appends them to its own). */
export const CONTRACT_ROUTES: readonly (RouteRows & { module: string })[] = contracts.flatMap((m) => (m.routes ? [{ module: m.name, ...m.routes }] : []));

/** The modules' request hooks (src/http/app.ts adds them to the root, in the list's order). */
export const CONTRACT_REQUEST_HOOKS: readonly RequestHooks[] = contracts.flatMap((m) => (m.requestHooks ? [m.requestHooks] : []));

/** One API's operation docs: the kernel's table (src/http/api1 or api2 operation-docs.ts) and the contracts' (src/http/openapi.ts); an operation documented twice throws. */
export function operationTable(api: 'api1' | 'api2', kernel: OperationTable): OperationTable {
  return merge(`operation docs (${api})`, [{ owner: `src/http/${api}/operation-docs.ts`, rows: kernel }, ...contracts.map((m) => ({ owner: m.name, rows: m.operations?.[api] }))]);
}

/** Every error code the service answers: the kernel's catalogue and the modules'. */
export const ERROR_CATALOGUE: Readonly<Record<string, ErrorCodeEntry>> = merge<ErrorCodeEntry>('error codes', [
  { owner: 'src/core/error-codes.ts', rows: ERROR_CODES },
  ...contracts.map((m) => ({ owner: m.name, rows: m.errorCodes as Record<string, ErrorCodeEntry> | undefined })),
]);

/** The one contract's `publishing`, or none; two modules giving one is an error at load (one INSERT writes an event). */
export function onePublishing(list: readonly ModuleContract<any, any, any, any, any, any>[]): StoreModules<ModuleRepos>['publishing'] {
  const giving = list.filter((m) => m.publishing);
  if (giving.length > 1) throw new Error(`publishing: given by both ${giving[0]!.name} and ${giving[1]!.name}; an event is written by one`);
  return giving[0]?.publishing;
}

/** The store's share of the list: the modules' repositories and their events' invalidation rows (src/adapters/postgres/store.ts). */
export const STORE_MODULES: StoreModules<ModuleRepos> = {
  repositories: merge('repositories', contracts.map((m) => ({ owner: m.name, rows: m.repositories }))) as StoreModules<ModuleRepos>['repositories'],
  invalidation: merge('invalidation rows', contracts.map((m) => ({ owner: m.name, rows: m.invalidation }))) as ModuleInvalidation,
  publishing: onePublishing(contracts),
};

// Compile-time completeness: a module core's declared event without its invalidation row, or
// code without its catalogue row, names itself in the error on these lines.
type RowsOf<K extends 'invalidation' | 'errorCodes'> = Entry extends infer M ? (M extends { readonly [P in K]?: infer T } ? keyof NonNullable<T> : never) : never;
type MissingInvalidation = Exclude<keyof ModuleEventData, RowsOf<'invalidation'>>;
type MissingCatalogue = Exclude<keyof ModuleErrorCodes, RowsOf<'errorCodes'>>;
export const eventsHaveRows: [MissingInvalidation] extends [never] ? true : { eventWithoutInvalidationRow: MissingInvalidation } = true;
export const codesHaveRows: [MissingCatalogue] extends [never] ? true : { codeWithoutCatalogueRow: MissingCatalogue } = true;
