// `npm run admin -- <command>`: administration of a deployment from its own configuration
// (the same environment as `npm start`: DATABASE_URL or DATA_DIR, PUBLIC_URL…), with the
// service running or not. On PostgreSQL it opens the database beside running nodes (they
// see its changes through their domain events). The embedded database belongs to one
// process: when the service holds it, the command asks the service to run it over its
// administration socket (src/admin-socket.ts); when it is stopped, the command opens it.
// The commands: src/admin-commands.ts; their use cases: src/modules/operator/core/admin.ts.
import { loadConfig, type Config } from './config.ts';
import type { Sql } from './adapters/postgres/sql.ts';
import type { Store } from './core/ports/repositories.ts';
import type { Snapshots } from './core/ports/snapshots.ts';
import { createSnapshots } from './adapters/snapshots/snapshots.ts';
import { openObjectStore, storedSigningKey } from './adapters/storage/open.ts';
import { openDatabase } from './adapters/postgres/open.ts';
import { migrate } from './adapters/postgres/migrate.ts';
import { createStore } from './adapters/postgres/store.ts';
import { DataDirLockedError } from './adapters/postgres/pglite.ts';
import { OffsetClock } from './adapters/clock/offset-clock.ts';
import { randomIds } from './adapters/ids/random-ids.ts';
import { argon2Hasher } from './adapters/crypto/argon2-hasher.ts';
import { createEs256Signer } from './adapters/jwt/es256-signer.ts';
import { createAdmin, createSandboxClock, createSeeder } from './modules/operator/index.ts';
import { seedRolesAndGroups } from './modules/roles/index.ts';
import { createSigningKeys } from './modules/oauth/index.ts';
import { silentLogger } from './core/ports/telemetry.ts';
import { USAGE, adminFailure, executeAdmin, parseAdminArgs, type AdminBackend, type AdminResult } from './admin-commands.ts';
import { runOverAdminSocket } from './admin-socket.ts';
import { confirmSsoDomain } from './modules/sso/index.ts';
import { STORE_MODULES } from './modules/registries.ts';
import { createAuditLog } from './modules/audit/index.ts';
import { createAuthorizer } from './core/permissions/authorizer.ts';

/** The snapshot engine on the command's own connection (the service stopped, or PostgreSQL beside it). */
async function createSnapshotEngine(config: Config, sql: Sql, store: Store, clock: OffsetClock): Promise<Snapshots> {
  const objectStore = await openObjectStore(config, { clock, signingKey: storedSigningKey(store.repos.settings), logger: silentLogger });
  return createSnapshots({ sql, store, objectStore, clock, dir: config.sandboxTools.snapshotsDir });
}

/** The admin commands' view of the engine, opened (with the object store) by the first snapshot command only. */
const snapshotsOf = (open: () => Promise<Snapshots>): AdminBackend['snapshots'] => ({
  save: async (name, opts) => (await open()).save(name, opts),
  list: async () => (await open()).list(),
  restore: async (name) => (await open()).restore(name),
  remove: async (name) => {
    await (await open()).remove(name);
    return { deleted: name };
  },
});

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

const LOCKED_HINT = ' (the embedded database belongs to the running service, whose administration socket does not answer: stop the service first)';

async function main(argv: string[]): Promise<AdminResult> {
  const parsed = parseAdminArgs(argv);
  if (!parsed) return { code: argv.includes('--help') || argv.includes('-h') ? 0 : 2, stdout: USAGE, stderr: '' };
  const config = loadConfig();
  let sql;
  try {
    sql = await openDatabase(config.database, config.databaseDeadlines);
  } catch (e) {
    if (!(e instanceof DataDirLockedError)) throw e;
    // The service holds the embedded database: it runs the command for us.
    const stdin = parsed.values['password-stdin'] ? await readStdin() : undefined;
    const remote = await runOverAdminSocket(config.dataDir, argv, stdin);
    if (remote) return remote;
    return { code: 1, stdout: '', stderr: `scanbase admin: ${e.message}${LOCKED_HINT}\n` };
  }
  try {
    await migrate(sql);
    const store = await createStore(sql, undefined, STORE_MODULES);
    const clock = new OffsetClock();
    // The sandbox's shared clock, so links expire on the service's time.
    if (config.sandbox) await createSandboxClock({ store, clock }).load();
    const ids = randomIds;
    const applySeed = createSeeder({ store, clock, ids, hasher: argon2Hasher, extensions: [seedRolesAndGroups(ids, clock)] });
    let engine: ReturnType<typeof createSnapshotEngine> | null = null;
    const result = await executeAdmin(parsed, {
      admin: createAdmin({ store, clock, ids, publicUrl: config.publicUrl, applySeed }),
      confirmSsoDomain: (domain, token) => confirmSsoDomain({ store, clock }, domain, token),
      snapshots: snapshotsOf(() => (engine ??= createSnapshotEngine(config, sql, store, clock))),
      // Each command's changes are recorded in their transactions (the log's commit step on this store).
      auditLog: createAuditLog({ store, clock, ids, authorizer: createAuthorizer({ store }), retentionDays: 0 }),
      rotateSigningKey: async () => {
        const signer = await createEs256Signer(sql, { issuer: config.publicUrl, audience: config.publicUrl });
        return createSigningKeys({ store, clock, signer, logger: silentLogger }).rotate();
      },
    }, readStdin);
    await store.close();
    return result;
  } finally {
    await sql.close();
  }
}

main(process.argv.slice(2)).then(
  (r) => {
    process.stdout.write(r.stdout);
    process.stderr.write(r.stderr);
    process.exit(r.code);
  },
  (e: unknown) => {
    const failure = adminFailure(e);
    if (failure) {
      process.stderr.write(failure.stderr);
      process.exit(failure.code);
    }
    console.error('scanbase admin: failed:', e);
    process.exit(1);
  },
);
