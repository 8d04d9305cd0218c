// The Store adapter: binds every repository to one executor (pool or transaction), and
// delivers published scope changes after commit: to this node directly, to other nodes
// through LISTEN/NOTIFY (NOTIFY inside a transaction is sent when it commits).
import { randomUUID } from 'node:crypto';
import type { CommitStep, Repos, Store } from '../../core/ports/repositories.ts';
import type { Sql, Unlisten } from './sql.ts';
import { usersRepo } from './repos/users.ts';
import { accessRepo } from './repos/access.ts';
import { locksRepo } from './repos/locks.ts';
import { adminRepo, settingsRepo, throttleRepo } from './repos/misc.ts';
import { decodeEvent, EVENTS_CHANNEL, eventsRepo, type NotifiedEvent } from './repos/events.ts';
import type { StoredDomainEvent } from '../../core/events/domain-events.ts';
import { errorFields, type Logger } from '../../core/ports/telemetry.ts';
import type { ModuleInvalidation } from '../../core/events/invalidation.ts';
import type { EventPublishing, EventsRepo, EventWriter } from '../../core/ports/events.ts';

/** What the module list adds to the store (src/modules/registries.ts): its repositories, its events' invalidation rows, how events are published. */
export interface StoreModules<M> {
  /** Each module repository's factory by name, bound to each executor as the kernel's are. */
  repositories: { readonly [K in keyof M]: (sql: Sql) => M[K] };
  invalidation: ModuleInvalidation;
  /** The one module's publishing (the webhooks' fan-out), or none: events are written alone. */
  publishing?: EventPublishing<Repos & M>;
}

/** Publishing without a module's: the event alone, no fan-out. */
const writeAlone = (writer: EventWriter): EventsRepo => ({ publish: (event, now) => writer.write(event, now, null) });

const NO_MODULES: StoreModules<Record<never, never>> = { repositories: {}, invalidation: {} };

/** The modules' repositories bound to `sql` (a name the kernel already uses is refused). */
function moduleRepos<M>(sql: Sql, factories: StoreModules<M>['repositories'], kernel: Repos): M {
  const out: Record<string, unknown> = {};
  for (const [name, factory] of Object.entries(factories) as [string, (sql: Sql) => unknown][]) {
    if (name in kernel) throw new Error(`a module's repository ${name} has the name of a kernel repository`);
    out[name] = factory(sql);
  }
  return out as M;
}

/**
 * `origin`: the id of the store, carried by its events' notifications (repos/events.ts
 * encodeEvent). `publishing` reads its repositories on this same executor (the publishing
 * transaction): the modules' are assigned onto this object by createStore before anything is
 * published.
 */
export function createRepos(sql: Sql, events: (e: StoredDomainEvent) => void, origin: string, publishing?: EventPublishing): Repos {
  const writer = eventsRepo(sql, events, origin);
  const repos: Repos = {
    events: publishing ? publishing(writer, () => repos) : writeAlone(writer),
    locks: locksRepo(sql),
    access: accessRepo(sql),
    users: usersRepo(sql),
    throttle: throttleRepo(sql),
    settings: settingsRepo(sql),
    admin: adminRepo(sql),
  };
  return repos;
}

export async function createStore<M = Record<never, never>>(
  sql: Sql,
  logger?: Logger,
  modules: StoreModules<M> = NO_MODULES as StoreModules<M>,
): Promise<Store<Repos & M> & { close(): Promise<void> }> {
  // Names this store in its events' notifications: a node delivers its own events once, at
  // commit, and skips them when LISTEN brings them back (other nodes' it delivers from there).
  const origin = randomUUID();
  const bind = (executor: Sql, events: (e: StoredDomainEvent) => void): Repos & M => {
    const kernel = createRepos(executor, events, origin, modules.publishing);
    return Object.assign(kernel, moduleRepos(executor, modules.repositories, kernel));
  };
  const eventListeners: ((e: StoredDomainEvent) => void)[] = [];
  const emitEvent = (e: StoredDomainEvent) => {
    for (const l of eventListeners) {
      try {
        l(e);
      } catch (err) {
        // One consumer's failure must not keep the event from the others.
        logger?.error({ ...errorFields(err), event: e.type }, 'domain event consumer failed');
      }
    }
  };
  // Other nodes' events (PGlite is single-process: its own emits suffice). '*' is the
  // connection's "reconnected, messages may have been missed" (node-postgres.ts).
  const onNotify = (text: string) => {
    if (text === '*') {
      emitEvent({ type: 'events.missed', accountId: null, subject: 'service', data: {}, id: randomUUID(), occurredAt: new Date() });
      return;
    }
    let decoded: NotifiedEvent;
    try {
      decoded = decodeEvent(text);
    } catch (err) {
      logger?.error({ ...errorFields(err), channel: EVENTS_CHANNEL }, 'unreadable domain event notification skipped');
      return;
    }
    // This store's own events were delivered right after their commit: each once.
    if (decoded.origin !== origin) emitEvent(decoded.event);
  };
  const commitSteps: CommitStep<Repos & M>[] = [];
  const poolRepos = bind(sql, emitEvent); // first: a module repository's bad name throws before anything is opened
  const unlistenEvents: Unlisten = sql.engine === 'postgres' ? await sql.listen(EVENTS_CHANNEL, onNotify) : async () => {};
  return {
    repos: poolRepos,
    moduleInvalidation: modules.invalidation,
    async transaction(fn) {
      const pendingEvents: StoredDomainEvent[] = [];
      const result = await sql.transaction(async (tx) => {
        const repos = bind(tx, (e) => pendingEvents.push(e));
        const out = await fn(repos);
        for (const step of commitSteps) {
          const running = step(repos, pendingEvents);
          if (running) await running;
        }
        return out;
      });
      // Delivered only once committed: a transaction that throws delivers nothing.
      for (const e of pendingEvents) emitEvent(e);
      return result;
    },
    async ping(opts) {
      await sql.query('SELECT 1', [], { waitMs: opts?.waitMs });
    },
    onEvent(listener) {
      eventListeners.push(listener);
    },
    beforeCommit(step) {
      commitSteps.push(step);
    },
    eventsListener: () => unlistenEvents.state?.() ?? null,
    close: unlistenEvents,
  };
}
