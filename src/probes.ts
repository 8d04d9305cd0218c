// The node's probes (GET /healthz, GET /readyz; docs/operations.md "Probes"). Readiness
// answers within PROBE_MS whatever the database does: a ping that waits longer for a
// connection, a store that does not answer, or a transaction past its deadline still open
// (its connection is stuck) each make it not ready, with the reason; so does a LISTEN
// connection (PostgreSQL) being replaced.
import type { Store } from './core/ports/repositories.ts';
import type { ObjectStore } from './core/ports/object-store.ts';
import type { DatabaseLoad } from './adapters/postgres/deadlines.ts';
import { errorFields, type Logger } from './core/ports/telemetry.ts';

/** The longest a probe waits for the database or the store (GET /readyz answers within 2 s). */
export const PROBE_MS = 1000;

export interface Readiness {
  status: 'ok' | 'unavailable' | 'draining';
  /** Why it is not ready (absent when ready). */
  reason?: string;
  /** The LISTEN connection's state when it is what makes the node not ready (PostgreSQL). */
  listener?: string;
}

export interface Probes {
  /** GET /healthz: the database and storage answer (a failure is logged with its reason). */
  health(): Promise<boolean>;
  /** GET /readyz: not draining, no stuck transaction, database and storage answering within PROBE_MS. */
  ready(): Promise<Readiness>;
  beginDrain(): void;
  isDraining(): boolean;
}

/** `what` answered within `ms`, or the reason it did not. */
async function within(what: string, ms: number, call: () => Promise<unknown>): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`${what} did not answer within ${ms / 1000} s`), ms);
  });
  try {
    return await Promise.race([call().then(() => null, (e: unknown) => `${what} failed: ${e instanceof Error ? e.message : String(e)}`), late]);
  } finally {
    clearTimeout(timer);
  }
}

export function createProbes(deps: { store: Pick<Store, 'ping' | 'eventsListener'>; objectStore: ObjectStore; load: () => DatabaseLoad | undefined; logger: Logger }): Probes {
  const { store, objectStore, logger } = deps;
  let draining = false;
  return {
    async health() {
      try {
        await store.ping();
        await objectStore.ping?.();
        return true;
      } catch (e) {
        logger.warn(errorFields(e), 'health check failed');
        return false;
      }
    },
    async ready() {
      if (draining) return { status: 'draining', reason: 'shutting down' };
      // A node that does not hear other nodes' changes (its LISTEN connection lost or silent,
      // being replaced) may answer from stale caches: no traffic until it listens again.
      const listener = store.eventsListener?.();
      if (listener && listener.state !== 'listening') {
        return { status: 'unavailable', reason: `the connection that hears other nodes' changes is ${listener.state}`, listener: listener.state };
      }
      const load = deps.load();
      if (load && load.overdueTransactions > 0) {
        return { status: 'unavailable', reason: `a database transaction is still open ${Math.round(load.oldestTransactionMs / 1000)} s after it started, past its deadline` };
      }
      const [db, objects] = await Promise.all([
        within('the database', PROBE_MS, () => store.ping({ waitMs: PROBE_MS })),
        within('the object store', PROBE_MS, () => objectStore.ping?.() ?? Promise.resolve()),
      ]);
      const reason = db ?? objects;
      if (reason) logger.warn({ reason }, 'not ready');
      return reason ? { status: 'unavailable', reason } : { status: 'ok' };
    },
    beginDrain() {
      draining = true;
    },
    isDraining: () => draining,
  };
}
