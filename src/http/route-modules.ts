// Where each feature module's HTTP routes are (docs/architecture.md "Routes by module"): the
// modules' contracts give them (src/modules/<m>/http), in the order below, so the paths keep
// the order they had when modules were folders of src/core. Each route file serves one module
// in one API. api1/routes.ts and api2/routes.ts add every
// row's routes of their API, and app.ts registers every row's other routes, all in the
// order of this table: that order is the order of the paths in the OpenAPI documents (and
// so in the SDK's generated types).
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { HttpServices, Services } from '../services.ts';
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
 * The places of the modules that were folders of src/core, in the order they had: each is
 * filled with that module's contract routes, so a module moved out of src/core keeps its paths
 * where they were in the OpenAPI documents (and the SDK's generated types). The module list's
 * other contracts follow in the list's order. Every route is a contract's: the HTTP layer
 * serves no module's routes of its own.
 */
const FIRST_PLACES: readonly string[] = ['oauth', 'accounts', 'users', 'projects', 'workzones', 'members', 'files', 'webhooks', 'operator'];

/** Every module's routes: the modules of FIRST_PLACES in that order, then the module list's other contracts (src/modules/registries.ts). */
export const ROUTE_MODULES: readonly ModuleRoutes[] = [
  ...FIRST_PLACES.flatMap((name) => CONTRACT_ROUTES.filter((c) => c.module === name)),
  ...CONTRACT_ROUTES.filter((c) => !FIRST_PLACES.includes(c.module)),
];
