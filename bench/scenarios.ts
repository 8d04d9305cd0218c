// The benchmark's scenarios. To measure a new endpoint, add an entry: which server it
// runs against, how to prepare the request (seed, obtain a token…), what its throughput
// is compared with, and the target ratio (reported, never asserted).
import { BENCH_USER, type RunningServer, type ScanbaseServer, type ServerKind } from './servers.ts';
import { workzoneAtDepth } from './workzone-depth.ts';
import { projectListOfMember, projectListOfMemberIdentity } from './project-list.ts';
import { projectRename, WEBHOOK_ENDPOINTS } from './webhook-cost.ts';

export interface BenchRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** The status every response must have (default 200); any other counts as a failure. */
  expectStatus?: number;
}

type ServerOf<K extends ServerKind> = K extends 'bare' ? RunningServer : ScanbaseServer;

export interface Scenario<K extends ServerKind = ServerKind> {
  name: string;
  server: K;
  /** Target throughput relative to the reference; omitted for the references themselves. */
  target?: number;
  /**
   * The scenarios whose throughputs, combined as 1 / (1/a + 1/b + …), are the reference
   * of this one's ratio: the rate a request costing each of them once would reach.
   * Default: the bare node:http baseline alone; [] for no ratio.
   */
  reference?: readonly string[];
  /**
   * HTTP scenarios: runs once, after the server started and before the warm-up; answers
   * the request to fire. Point-select drivers measure themselves and have none.
   */
  setup?(server: ServerOf<K>): Promise<BenchRequest>;
}

const scenario = <K extends ServerKind>(s: Scenario<K>): Scenario => s as unknown as Scenario;

/** The scenario every ratio is computed against unless it names another reference. */
export const BASELINE = 'bare node:http JSON';
const SELECT_PGLITE = 'bare point-select (PGlite)';
const SELECT_POSTGRES = 'bare point-select (node-postgres)';
const DEPTH_1 = 'GET work zone at depth 1 (PGlite)';
const ISLOGGED_PGLITE = 'GET /api/isLogged (PGlite)';
const RENAME = (engine: string) => `PATCH project name, no webhook (${engine})`;

const isLogged = async (server: ScanbaseServer): Promise<BenchRequest> => ({
  path: '/api/isLogged',
  headers: { authorization: `Bearer ${await server.accessTokenFor(BENCH_USER.email)}` },
});

/** The seeded account's roles (three base roles and three of its own), as its owner. */
const accountRoles = async (server: ScanbaseServer): Promise<BenchRequest> => {
  const account = server.seeded.accounts[0];
  if (!account) throw new Error('the seed answered no account');
  return {
    path: `/api/2/accounts/${account.id}/roles`,
    headers: { authorization: `Bearer ${await server.accessTokenFor(BENCH_USER.email)}` },
  };
};

export const scenarios: Scenario[] = [
  scenario({ name: BASELINE, server: 'bare', reference: [], setup: async () => ({ path: '/' }) }),
  scenario({ name: SELECT_PGLITE, server: 'point-select-pglite', reference: [] }),
  scenario({ name: SELECT_POSTGRES, server: 'point-select-postgres', reference: [] }),
  scenario({ name: ISLOGGED_PGLITE, server: 'scanbase-pglite', target: 0.8, setup: isLogged }),
  scenario({ name: 'GET /api/isLogged (PostgreSQL)', server: 'scanbase-postgres', target: 0.8, setup: isLogged }),
  // Issue 32: the fault rules' hook with an empty list (SANDBOX=1) and the request journal,
  // each against the same request on a server without them (the same run).
  scenario({ name: 'GET /api/isLogged, empty fault rules (PGlite)', server: 'scanbase-pglite-sandbox', target: 0.99, reference: [ISLOGGED_PGLITE], setup: isLogged }),
  scenario({ name: 'GET /api/isLogged, journal on (PGlite)', server: 'scanbase-pglite-journal', target: 0.95, reference: [ISLOGGED_PGLITE], setup: isLogged }),
  scenario({
    name: 'GET /api/2/accounts/{a}/roles (PGlite)',
    server: 'scanbase-pglite',
    target: 0.7,
    reference: [BASELINE, SELECT_PGLITE],
    setup: accountRoles,
  }),
  scenario({
    name: 'GET /api/2/accounts/{a}/roles (PostgreSQL)',
    server: 'scanbase-postgres',
    target: 0.7,
    reference: [BASELINE, SELECT_POSTGRES],
    setup: accountRoles,
  }),
  // Projects issue: a member's authorized read in a project of 1,000 zones, 10 levels deep.
  scenario({ name: DEPTH_1, server: 'scanbase-pglite', reference: [], setup: workzoneAtDepth(1) }),
  scenario({ name: 'GET work zone at depth 10 (PGlite)', server: 'scanbase-pglite', target: 0.9, reference: [DEPTH_1], setup: workzoneAtDepth(10) }),
  // Operations issue, item 10: the same read against the combined limit used for roles, and
  // the project list of a member of 1,000 projects (a fixed number of queries each), as Node's
  // fetch asks for it (gzip; bench/project-list.ts).
  scenario({ name: 'GET work zone of 1,000 (PGlite)', server: 'scanbase-pglite-large', target: 0.7, reference: [BASELINE, SELECT_PGLITE], setup: workzoneAtDepth(10) }),
  scenario({ name: 'GET work zone of 1,000 (PostgreSQL)', server: 'scanbase-postgres-large', target: 0.7, reference: [BASELINE, SELECT_POSTGRES], setup: workzoneAtDepth(10) }),
  scenario({ name: 'GET projects, member of 1,000 (PGlite)', server: 'scanbase-pglite-list', target: 0.5, reference: [BASELINE, SELECT_PGLITE], setup: projectListOfMember }),
  scenario({ name: 'GET projects, member of 1,000 (PostgreSQL)', server: 'scanbase-postgres-list', target: 0.5, reference: [BASELINE, SELECT_POSTGRES], setup: projectListOfMember }),
  // Informational: the same list with no Accept-Encoding (identity, ~950 kB a request).
  scenario({ name: 'GET projects, member of 1,000, identity (PGlite)', server: 'scanbase-pglite-list', reference: [BASELINE, SELECT_PGLITE], setup: projectListOfMemberIdentity }),
  scenario({ name: 'GET projects, member of 1,000, identity (PostgreSQL)', server: 'scanbase-postgres-list', reference: [BASELINE, SELECT_POSTGRES], setup: projectListOfMemberIdentity }),
  // Webhooks issue: the cost of an event, the same write with webhook endpoints registered vs none (bench/webhook-cost.ts).
  scenario({ name: RENAME('PGlite'), server: 'scanbase-pglite', reference: [], setup: projectRename(0) }),
  scenario({ name: `PATCH project name, ${WEBHOOK_ENDPOINTS} webhooks (PGlite)`, server: 'scanbase-pglite', target: 0.8, reference: [RENAME('PGlite')], setup: projectRename(WEBHOOK_ENDPOINTS) }),
  scenario({ name: RENAME('PostgreSQL'), server: 'scanbase-postgres', reference: [], setup: projectRename(0) }),
  scenario({ name: `PATCH project name, ${WEBHOOK_ENDPOINTS} webhooks (PostgreSQL)`, server: 'scanbase-postgres', target: 0.8, reference: [RENAME('PostgreSQL')], setup: projectRename(WEBHOOK_ENDPOINTS) }),
];
