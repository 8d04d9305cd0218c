// Reads the configuration, wires the service and listens (entered from src/main.ts, after
// the compile cache is on). SEED_FILE is applied at start. SIGTERM/SIGINT drain it
// (docs/operations.md): not ready, no new connections, in-flight requests get
// SHUTDOWN_DRAIN_SECONDS, background jobs stop after the one in hand, then the database
// closes (releasing DATA_DIR's lock) and the process exits 0.
import type http from 'node:http';
import { ConfigError, loadConfig } from './config.ts';
import { compose } from './compose.ts';
import { buildApp, LOG_REDACT } from './http/app.ts';
import { metricsListener } from './http/metrics.ts';
import { DataDirLockedError } from './adapters/postgres/pglite.ts';
import { createLogger } from './adapters/telemetry/pino-logger.ts';
import { DomainError } from './core/errors.ts';
import { errorFields } from './core/ports/telemetry.ts';
import { startupLines } from './startup-report.ts';
import { listenFailure } from './startup-failures.ts';
import { listenAdminSocket } from './admin-socket.ts';
import { createAdmin } from './modules/operator/index.ts';

/** After the drain time, how long the rest of the shutdown (tasks, jobs, storage, database) may take. */
const SHUTDOWN_GRACE_MS = 5000;

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger({ level: config.logLevel, pretty: process.stdout.isTTY === true, redact: LOG_REDACT });
  const core = await compose(config, { logger, processMetrics: true });
  const doc = await core.loadSeedFile();
  const seed = doc && config.seedFile ? { file: config.seedFile, result: await core.applySeed(doc) } : null;
  const app = await buildApp(core, { loggerInstance: logger });

  let metricsServer: http.Server | undefined;
  let adminSocket: http.Server | null = null;
  let stoppingSince = 0;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stoppingSince) {
      // Ctrl-C under npm start delivers SIGINT twice at once (the terminal's, and npm's
      // forwarded copy): only a signal sent later means "stop now".
      if (Date.now() - stoppingSince < 1000) return;
      logger.warn({ signal }, 'second signal during shutdown: exiting now');
      process.exit(1);
    }
    stoppingSince = Date.now();
    const drainMs = config.shutdownDrainSeconds * 1000;
    logger.info({ signal, drainSeconds: config.shutdownDrainSeconds }, 'shutting down: not ready, draining requests');
    core.beginDrain();
    // Whatever hangs (a database that stopped answering, a store), the process ends within
    // the drain time plus 5 s; the data directory's lock goes with it (released on exit).
    setTimeout(() => {
      logger.error({ drainSeconds: config.shutdownDrainSeconds }, 'shutdown did not finish within the drain time plus 5 s: exiting now');
      process.exit(1);
    }, drainMs + SHUTDOWN_GRACE_MS).unref();
    // Past the drain time, connections still busy are cut so that the rest of the shutdown runs.
    const cut = setTimeout(() => {
      logger.warn({ drainSeconds: config.shutdownDrainSeconds }, 'drain time over: closing the connections still open');
      app.server.closeAllConnections();
    }, drainMs);
    // A kept-alive connection whose request has just been answered would otherwise stay
    // open until its keep-alive timeout: close each one as soon as it is idle.
    const idle = setInterval(() => app.server.closeIdleConnections(), 100);
    try {
      await app.close(); // no new connections; in-flight requests finish (new ones on kept-alive connections get 503)
      clearTimeout(cut);
      clearInterval(idle);
      if (metricsServer) {
        metricsServer.closeAllConnections();
        await new Promise<void>((resolve) => metricsServer!.close(() => resolve()));
      }
      if (adminSocket) {
        adminSocket.closeAllConnections();
        await new Promise<void>((resolve) => adminSocket!.close(() => resolve())); // removes the socket file
      }
      await core.close(); // timers, jobs (after the one in hand), storage, database and its lock
      logger.info({ signal }, 'stopped');
      process.exit(0);
    } catch (e) {
      logger.error(errorFields(e), 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', (s) => void shutdown(s));
  process.on('SIGTERM', (s) => void shutdown(s));

  for (const [fields, message, level] of startupLines(config, {
    version: core.version,
    nodeVersion: process.version,
    migrationsApplied: core.startup.migrationsApplied,
    migrationsTotal: core.startup.migrationsTotal,
    seed,
  })) {
    logger[level ?? 'info'](fields, message);
  }
  // A port already taken, a HOST that is not this machine's: one line naming the setting.
  const listening = async <T>(portSetting: 'PORT' | 'METRICS_PORT', port: number, listen: () => Promise<T>): Promise<T> => {
    try {
      return await listen();
    } catch (e) {
      throw listenFailure(e, { host: config.host, port, portSetting }) ?? e;
    }
  };
  if (config.metricsPort !== undefined) {
    metricsServer = await listening('METRICS_PORT', config.metricsPort, () => metricsListener(core, config.host, config.metricsPort!));
  }
  await listening('PORT', config.port, () => app.listen({ host: config.host, port: config.port }));
  // The embedded database is this process's alone: `npm run admin` asks it over a socket.
  if (config.database.kind === 'pglite-file') {
    adminSocket = await listenAdminSocket(config.dataDir, {
      admin: createAdmin({ store: core.store, clock: core.clock, ids: core.ids, publicUrl: config.publicUrl, applySeed: core.applySeed }),
      rotateSigningKey: () => core.signingKeys.rotate(),
      confirmSsoDomain: (domain, token) => core.ssoSettings.confirmDomain(domain, token),
      // Through the request gate, as /_operator/snapshots: the service's requests never see half a restore.
      snapshots: core.snapshotControl,
      auditLog: core.auditLog,
    }, logger);
  }
}

main().catch((e: unknown) => {
  if (e instanceof ConfigError || e instanceof DataDirLockedError || e instanceof DomainError) {
    console.error(`scanbase: ${e.message}`);
  } else {
    console.error('scanbase: failed to start:', e);
  }
  process.exit(1);
});
