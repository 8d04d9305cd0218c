// The benchmark's scenarios. To measure a new endpoint, add an entry: which server it
// runs against, how to prepare the request (seed, obtain a token…), and the target
// ratio of its throughput to the bare node:http baseline (reported, never asserted).
import { BENCH_USER, type RunningServer, type ScanbaseServer, type ServerKind } from './servers.ts';

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
  /** Target throughput relative to the baseline; omitted for the baseline itself. */
  target?: number;
  /** Runs once, after the server started and before the warm-up; answers the request to fire. */
  setup(server: ServerOf<K>): Promise<BenchRequest>;
}

const scenario = <K extends ServerKind>(s: Scenario<K>): Scenario => s as unknown as Scenario;

/** The scenario every ratio is computed against. */
export const BASELINE = 'bare node:http JSON';

const isLogged = async (server: ScanbaseServer): Promise<BenchRequest> => ({
  path: '/api/isLogged',
  headers: { authorization: `Bearer ${await server.accessTokenFor(BENCH_USER.email)}` },
});

export const scenarios: Scenario[] = [
  scenario({ name: BASELINE, server: 'bare', setup: async () => ({ path: '/' }) }),
  scenario({ name: 'GET /api/isLogged (PGlite)', server: 'scanbase-pglite', target: 0.8, setup: isLogged }),
  scenario({ name: 'GET /api/isLogged (PostgreSQL)', server: 'scanbase-postgres', target: 0.8, setup: isLogged }),
];
