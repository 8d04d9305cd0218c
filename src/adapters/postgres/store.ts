// The Store adapter: binds every repository to one executor (pool or transaction), and
// delivers published scope changes after commit: to this node directly, to other nodes
// through LISTEN/NOTIFY (NOTIFY inside a transaction is sent when it commits).
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { Sql } from './sql.ts';
import { usersRepo } from './repos/users.ts';
import { accountsRepo } from './repos/accounts.ts';
import { subscriptionsRepo } from './repos/subscriptions.ts';
import { oauthRepo } from './repos/oauth.ts';
import { accessRepo } from './repos/access.ts';
import { rolesRepo } from './repos/roles.ts';
import { projectsRepo, workzonesRepo } from './repos/projects.ts';
import { membersRepo } from './repos/members.ts';
import { reportsRepo } from './repos/reports.ts';
import { jobsRepo } from './repos/jobs.ts';
import { locksRepo } from './repos/locks.ts';
import { connectRepo } from './repos/connect.ts';
import { tagsRepo } from './repos/tags.ts';
import { cropsRepo, filesRepo, uploadsRepo } from './repos/files.ts';
import { groupsRepo, invitationsRepo } from './repos/groups.ts';
import { rateLimitsRepo } from './repos/rate-limits.ts';
import { adminRepo, settingsRepo, throttleRepo, webSessionsRepo } from './repos/misc.ts';
import { outboxRepo } from './repos/outbox.ts';
import { decodeEvent, EVENTS_CHANNEL, eventsRepo } from './repos/events.ts';
import { webhooksRepo } from './repos/webhooks.ts';
import { withWebhookFanOut } from '../../core/webhooks/index.ts';
import type { StoredDomainEvent } from '../../core/events/domain-events.ts';
import { errorFields, type Logger } from '../../core/ports/telemetry.ts';

export const CHANGES_CHANNEL = 'scanbase_changes';

export function createRepos(sql: Sql, published: (scope: string) => void, events: (e: StoredDomainEvent) => void): Repos {
  const webhooks = webhooksRepo(sql);
  return {
    events: withWebhookFanOut(eventsRepo(sql, events), webhooks),
    webhooks,
    locks: locksRepo(sql),
    jobs: jobsRepo(sql),
    connect: connectRepo(sql),
    tags: tagsRepo(sql),
    files: filesRepo(sql),
    uploads: uploadsRepo(sql),
    crops: cropsRepo(sql),
    reports: reportsRepo(sql),
    projects: projectsRepo(sql),
    workzones: workzonesRepo(sql),
    members: membersRepo(sql),
    roles: rolesRepo(sql),
    groups: groupsRepo(sql),
    invitations: invitationsRepo(sql),
    access: accessRepo(sql),
    changes: {
      async publish(scope) {
        if (sql.engine === 'postgres') await sql.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, scope]);
        published(scope);
      },
    },
    users: usersRepo(sql),
    accounts: accountsRepo(sql),
    subscriptions: subscriptionsRepo(sql),
    oauth: oauthRepo(sql),
    webSessions: webSessionsRepo(sql),
    throttle: throttleRepo(sql),
    outbox: outboxRepo(sql),
    settings: settingsRepo(sql),
    rateLimits: rateLimitsRepo(sql),
    admin: adminRepo(sql),
  };
}

export async function createStore(sql: Sql, logger?: Logger): Promise<Store & { close(): Promise<void> }> {
  const listeners: ((scope: string) => void)[] = [];
  const emit = (scope: string) => {
    for (const l of listeners) l(scope);
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
  // Other nodes' changes and events (PGlite is single-process: its own emits suffice).
  const unlisten = sql.engine === 'postgres' ? await sql.listen(CHANGES_CHANNEL, emit) : async () => {};
  const unlistenEvents =
    sql.engine === 'postgres' ? await sql.listen(EVENTS_CHANNEL, (text) => emitEvent(decodeEvent(text))) : async () => {};
  return {
    repos: createRepos(sql, emit, emitEvent),
    async transaction(fn) {
      const pending: string[] = [];
      const pendingEvents: StoredDomainEvent[] = [];
      const result = await sql.transaction((tx) => fn(createRepos(tx, (s) => pending.push(s), (e) => pendingEvents.push(e))));
      for (const s of new Set(pending)) emit(s);
      for (const e of pendingEvents) emitEvent(e);
      return result;
    },
    async ping() {
      await sql.query('SELECT 1');
    },
    onChange(listener) {
      listeners.push(listener);
    },
    onEvent(listener) {
      eventListeners.push(listener);
    },
    async close() {
      await unlisten();
      await unlistenEvents();
    },
  };
}
