// The Store adapter: binds every repository to one executor (pool or transaction).
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { Sql } from './sql.ts';
import { usersRepo } from './repos/users.ts';
import { accountsRepo } from './repos/accounts.ts';
import { subscriptionsRepo } from './repos/subscriptions.ts';
import { oauthRepo } from './repos/oauth.ts';
import { adminRepo, outboxRepo, settingsRepo, throttleRepo, webSessionsRepo } from './repos/misc.ts';

export function createRepos(sql: Sql): Repos {
  return {
    users: usersRepo(sql),
    accounts: accountsRepo(sql),
    subscriptions: subscriptionsRepo(sql),
    oauth: oauthRepo(sql),
    webSessions: webSessionsRepo(sql),
    throttle: throttleRepo(sql),
    outbox: outboxRepo(sql),
    settings: settingsRepo(sql),
    admin: adminRepo(sql),
  };
}

export function createStore(sql: Sql): Store {
  return {
    repos: createRepos(sql),
    transaction: (fn) => sql.transaction((tx) => fn(createRepos(tx))),
    async ping() {
      await sql.query('SELECT 1');
    },
  };
}
