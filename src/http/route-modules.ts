// Where each feature module's HTTP routes are (docs/architecture.md "Routes by module"): the
// modules' contracts give them (src/modules/<m>/http), and the rows below hold the places the
// modules had when they were folders of src/core, so the paths keep their order; the users'
// browser pages are the one kernel routes a row adds. Each route file serves one module in one API. api1/routes.ts and api2/routes.ts add every
// row's routes of their API, and app.ts registers every row's other routes, all in the
// order of this table: that order is the order of the paths in the OpenAPI documents (and
// so in the SDK's generated types).
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { HttpServices, Services } from '../services.ts';
import { pageRoutes } from './pages/routes.ts';
import { CONTRACT_ROUTES } from '../modules/registries.ts';

/** Adds a module's routes to one API's plugin (authenticated and rate limited there, under /api or /api/2). */
export type ApiRoutes = (app: FastifyInstance, core: Services) => void;

/** A module's routes outside the two APIs (pages, signed blob URLs, the connect surface, the operator API). */
export interface OtherRoutes {
  /** Typed by the face and the object store (src/services.ts HttpServices): the local-disk store's signed blob URLs (src/modules/files/http/blobs.ts) serve its files. */
  plugin: (core: HttpServices) => FastifyPluginAsync;
  /** Browser pages: registered in a context of their own that parses form bodies and cookies (nowhere else does). */
  browser?: boolean;
  prefix?: string;
}

export interface ModuleRoutes {
  /** The module's folder under src/core (or src/modules). */
  module: string;
  api1?: ApiRoutes;
  api2?: ApiRoutes;
  other?: OtherRoutes;
}

/**
 * The places of the modules that were folders of src/core; the other modules' routes follow
 * (appended below). A row that names a module with a contract holds the place of that
 * module's contract routes: a module moved out of src/core keeps its paths where they were in
 * the documents (and the SDK's generated types). Such a row names only the routes that stay in
 * the kernel (the users' pages), never those of an API its contract has.
 */
const KERNEL_ROUTES: readonly ModuleRoutes[] = [
  // Their routes are their contracts' (src/modules/oauth, src/modules/accounts): these rows only keep their place.
  { module: 'oauth' },
  { module: 'accounts' },
  // Its API routes are its contract's (src/modules/users/module.ts); its browser pages (the
  // invitation and password-reset pages, the account page, the avatars) stay in src/http/pages:
  // they share the OAuth pages' browser session and page kit (src/http/oauth).
  { module: 'users', other: { plugin: pageRoutes, browser: true } },
  // Their routes are their contracts' (src/modules/projects, src/modules/workzones, src/modules/members,
  // src/modules/files, whose other routes are /_blobs, the local-disk store's signed URLs, src/modules/webhooks):
  // these rows only keep their place.
  { module: 'projects' },
  { module: 'workzones' },
  { module: 'members' },
  { module: 'files' },
  { module: 'webhooks' },
  // Its routes are its contract's (src/modules/operator/module.ts): this row only keeps their place.
  { module: 'operator' },
];

/** The contracts whose routes a kernel row holds the place of (a row naming a module of the list with routes). */
const held = new Set(KERNEL_ROUTES.filter((m) => CONTRACT_ROUTES.some((c) => c.module === m.module)).map((m) => m.module));

/** A held place: the contract's routes, with those the kernel row still names for its module. */
function fill(row: ModuleRoutes): ModuleRoutes[] {
  return CONTRACT_ROUTES.filter((c) => c.module === row.module).map((c) => {
    const twice = (['api1', 'api2', 'other'] as const).find((k) => row[k] && c[k]);
    if (twice) throw new Error(`${row.module}: its ${twice} routes are both in its contract and in src/http/route-modules.ts`);
    return { ...c, ...row };
  });
}

/** Every module's routes: src/core's rows above (a held place filled by its contract's), then the module list's other contracts (src/modules/registries.ts). */
export const ROUTE_MODULES: readonly ModuleRoutes[] = [
  ...KERNEL_ROUTES.flatMap((row) => (held.has(row.module) ? fill(row) : [row])),
  ...CONTRACT_ROUTES.filter((c) => !held.has(c.module)),
];
