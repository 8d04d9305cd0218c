// Deadlines on every database call (docs/decisions.md, "Deadlines on the database"), an
// Sql decorator over either engine:
//
// - the connections are a gate of N permits (PGlite: its one connection; node-postgres: the
//   pool's size): a root-level call waits for a permit at most `waitMs`, then fails with 503
//   `database-unavailable` without having run (a waiter that gave up never runs later, so a
//   refused write is never half-done behind the caller's back);
// - a transaction lives at most `transactionMs`: past it the caller's promise rejects (503),
//   its handle refuses every further statement, and the engine rolls it back (after the
//   statement in hand, itself bounded on PostgreSQL by statement_timeout); it is logged once
//   with its name (the use case that opened it: the first frame of its opener outside this
//   folder) and its age, and counted;
// - a call on the outer handle from inside a transaction of the same engine is refused at
//   once (TransactionReentryError): on PGlite it would wait for ever for the connection the
//   transaction holds, on PostgreSQL it holds a second connection while the first waits,
//   which exhausts the pool under load. It is a bug of the caller, never a runtime state.
//
// The open transactions and the gate's queue are what GET /readyz and /metrics report.
import { AsyncLocalStorage } from 'node:async_hooks';
import { DomainError } from '../../core/errors.ts';
import type { Logger } from '../../core/ports/telemetry.ts';
import type { QueryOptions, Sql } from './sql.ts';

export interface DatabaseDeadlines {
  /** Longest wait for a connection (PGlite's only one, or the pool's), ms. */
  waitMs: number;
  /** Longest life of a transaction, ms. */
  transactionMs: number;
}

/** What the deadlines see now (GET /readyz, GET /metrics). */
export interface DatabaseLoad {
  /** Age of the oldest open transaction, ms (0: none). */
  oldestTransactionMs: number;
  /** Transactions past their deadline whose connection the engine has not given back yet. */
  overdueTransactions: number;
  /** Calls waiting for a connection now. */
  waiting: number;
  /** Connections in use now, and how many there are. */
  inUse: number;
  permits: number;
}

/** Counters and observations the decorator reports (the metrics adapter implements them). */
export interface DeadlineObserver {
  /** A call got its connection after waiting `seconds`. */
  waited(seconds: number): void;
  /** A call gave up waiting for a connection. */
  waitTimedOut(): void;
  /** A transaction outlived its deadline and was rolled back. */
  transactionTimedOut(name: string): void;
}

/** A call on the outer handle made from inside a transaction of the same engine (a caller's bug). */
export class TransactionReentryError extends Error {
  override name = 'TransactionReentryError';
}

/** The database could not serve the call in time: 503 on every surface, with Retry-After. */
export const databaseUnavailable = (message: string) =>
  new DomainError('unavailable', 'database-unavailable', message, undefined, { 'retry-after': '5' });

/** One open transaction. */
interface OpenTransaction {
  /** The engine it runs on: a call from inside it on the same engine's outer handle is re-entry. */
  readonly engine: Sql;
  readonly startedAt: number;
  /** Where it was opened (formatted only when it is reported). */
  readonly opener: Error;
  /** It has returned, thrown or been rolled back by its deadline: the context may call the outer handle again. */
  finished: boolean;
  /** Its deadline passed while it was open. */
  expired: boolean;
}

const current = new AsyncLocalStorage<OpenTransaction>();

/** The opener's name: its first stack frame outside this folder and the store adapter. */
export function openerName(opener: Error): string {
  const frames = (opener.stack ?? '').split('\n').slice(1).map((l) => l.trim());
  const own = /adapters[\\/]postgres[\\/](?!repos[\\/])|node:internal|node_modules/;
  const frame = frames.find((f) => !own.test(f)) ?? frames[0] ?? 'unknown';
  return frame.replace(/^at (async )?/, '').replace(/\(?(file:\/\/)?[^ (]*[\\/](src|test|bench|scripts)[\\/]/, '$2/').replace(/\)$/, '');
}

/** A FIFO of `permits` connections whose waiters give up after their own deadline. */
class Gate {
  private inUse = 0;
  private readonly queue: { grant: () => void; timer: NodeJS.Timeout }[] = [];
  readonly permits: number;
  constructor(permits: number) {
    this.permits = permits;
  }

  get waiting(): number {
    return this.queue.length;
  }
  get busy(): number {
    return this.inUse;
  }

  /** A permit within `waitMs` (its release function), or a 503 having taken none. */
  acquire(waitMs: number, observer: DeadlineObserver | undefined): Promise<() => void> | (() => void) {
    if (this.inUse < this.permits && this.queue.length === 0) {
      this.inUse++;
      return this.release;
    }
    const since = performance.now();
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          clearTimeout(waiter.timer);
          observer?.waited((performance.now() - since) / 1000);
          resolve(this.release);
        },
        timer: setTimeout(() => {
          const i = this.queue.indexOf(waiter);
          if (i >= 0) this.queue.splice(i, 1);
          observer?.waitTimedOut();
          reject(databaseUnavailable(`The database did not answer within ${Math.round(waitMs / 1000)} s: try again shortly`));
        }, waitMs),
      };
      this.queue.push(waiter);
    });
  }

  private readonly release = () => {
    const next = this.queue.shift();
    if (next) next.grant(); // the permit passes on
    else this.inUse--;
  };
}

export interface DeadlineSql extends Sql {
  /** The open transactions and the connection queue now. */
  load(): DatabaseLoad;
}

/**
 * `engine` with deadlines. `permits`: how many calls the engine serves at once (1 for
 * PGlite, the pool's size for node-postgres); the engine's own queue then never fills.
 */
export function withDeadlines(
  engine: Sql,
  opts: DatabaseDeadlines & { permits: number; logger: Logger; observer?: DeadlineObserver },
): DeadlineSql {
  const gate = new Gate(opts.permits);
  const open = new Set<OpenTransaction>();
  const { logger, observer } = opts;

  const reentryGuard = (what: string) => {
    const tx = current.getStore();
    if (tx && !tx.finished && tx.engine === engine) {
      throw new TransactionReentryError(
        `${what} on the outer database handle from inside the transaction opened by ${openerName(tx.opener)}: ` +
          'use the transaction\'s own handle, or move the call after the transaction',
      );
    }
  };

  /** Runs `call` holding a permit, after the re-entry check; the engine's timeouts become 503. */
  const gated = async <T>(what: string, waitMs: number, call: () => Promise<T>): Promise<T> => {
    reentryGuard(what);
    const permit = gate.acquire(waitMs, observer);
    const release = typeof permit === 'function' ? permit : await permit;
    try {
      return await call();
    } catch (e) {
      throw engineTimeout(e) ?? e;
    } finally {
      release();
    }
  };

  /** The handle a transaction's callback gets: refuses every statement once its transaction is over. */
  const inside = (tx: Sql, state: OpenTransaction): Sql => {
    const check = () => {
      if (state.expired) throw databaseUnavailable('The transaction outlived its deadline and was rolled back');
      if (state.finished) throw new Error('The transaction has ended: its handle takes no more statements');
    };
    const handle: Sql = {
      engine: tx.engine,
      query: async (text, params, o) => (check(), tx.query(text, params, o)),
      queryTexts: async (text, params, onRow) => (check(), tx.queryTexts(text, params, onRow)),
      exec: async (text) => (check(), tx.exec(text)),
      copyOut: async (source, onChunk) => (check(), tx.copyOut(source, onChunk)),
      copyIn: async (target, data) => (check(), tx.copyIn(target, data)),
      transaction: async (fn) => (check(), fn(handle)), // nested: the same transaction
      listen: (channel, onMessage) => tx.listen(channel, onMessage),
      close: () => Promise.reject(new Error('a transaction handle is not closed')),
    };
    return handle;
  };

  return {
    engine: engine.engine,
    query: <R>(text: string, params?: unknown[], o?: QueryOptions) =>
      gated('A query', o?.waitMs ?? opts.waitMs, () => engine.query<R>(text, params, o)),
    queryTexts: (text, params, onRow) => gated('A query', opts.waitMs, () => engine.queryTexts(text, params, onRow)),
    exec: (text) => gated('A statement', opts.waitMs, () => engine.exec(text)),
    copyOut: (source, onChunk) => gated('A COPY', opts.waitMs, () => engine.copyOut(source, onChunk)),
    copyIn: (target, data) => gated('A COPY', opts.waitMs, () => engine.copyIn(target, data)),
    async transaction<T>(fn: (tx: Sql) => Promise<T>, o?: { deadlineMs?: number }): Promise<T> {
      const deadlineMs = o?.deadlineMs ?? opts.transactionMs;
      reentryGuard('A transaction');
      const permit = gate.acquire(opts.waitMs, observer);
      const release = typeof permit === 'function' ? permit : await permit;
      const state: OpenTransaction = { engine, startedAt: performance.now(), opener: new Error(), finished: false, expired: false };
      open.add(state);
      // At the deadline (unless fn has returned: its COMMIT is under way and is not cut), the
      // caller is answered at once, fn's handle refuses further statements and the engine
      // rolls back; the connection goes back to the gate when the engine has finished.
      let expire!: (e: unknown) => void;
      const expired = new Promise<never>((_, reject) => (expire = reject));
      const timer = deadlineMs
        ? setTimeout(() => {
          if (state.finished) return;
          state.expired = true;
          const name = openerName(state.opener);
          observer?.transactionTimedOut(name);
          logger.error({ transaction: name, ageMs: Math.round(performance.now() - state.startedAt), deadlineMs }, 'transaction outlived its deadline: rolled back');
          expire(databaseUnavailable(`The request's database work took longer than ${deadlineMs / 1000} s and was rolled back`));
        }, deadlineMs)
        : undefined;
      const run = engine
        .transaction(async (tx) => {
          try {
            return await current.run(state, () => Promise.race([fn(inside(tx, state)), expired]));
          } finally {
            state.finished = true;
          }
        })
        .catch((e: unknown) => {
          throw engineTimeout(e) ?? e;
        })
        .finally(() => {
          clearTimeout(timer);
          open.delete(state);
          release();
        });
      return Promise.race([run, expired]);
    },
    listen: (channel, onMessage) => engine.listen(channel, onMessage),
    close: () => engine.close(),
    ...(engine.poolStats ? { poolStats: () => engine.poolStats!() } : {}),
    ...(engine.dataDirectory
      ? {
        dataDirectory: {
          copyTo: (dest: string) => gated('A data-directory copy', opts.waitMs, () => engine.dataDirectory!.copyTo(dest)),
          replaceWith: (source: string, o?: { move?: boolean }) => gated('A data-directory swap', opts.waitMs, () => engine.dataDirectory!.replaceWith(source, o)),
        },
      }
      : {}),
    load(): DatabaseLoad {
      const now = performance.now();
      let oldest = 0;
      let overdue = 0;
      for (const t of open) {
        oldest = Math.max(oldest, now - t.startedAt);
        if (t.expired) overdue++;
      }
      return { oldestTransactionMs: Math.round(oldest), overdueTransactions: overdue, waiting: gate.waiting, inUse: gate.busy, permits: gate.permits };
    },
  };
}

/**
 * An engine's own deadline as a 503: PostgreSQL's statement_timeout (57014, query_canceled),
 * idle_in_transaction_session_timeout (25P03) and node-postgres's pool or connection timeouts.
 */
function engineTimeout(e: unknown): DomainError | null {
  const err = e as { code?: unknown; message?: unknown } | null;
  if (!err) return null;
  if (err.code === '57014') return databaseUnavailable('A database statement took longer than its deadline and was cancelled');
  if (err.code === '25P03') return databaseUnavailable('The database ended a transaction left idle past its deadline');
  if (typeof err.message === 'string' && /timeout exceeded when trying to connect|Connection terminated due to connection timeout/.test(err.message)) {
    return databaseUnavailable('The database could not be reached in time');
  }
  return null;
}
