// Reads the configuration, wires the service and listens. SEED_FILE is applied at start.
import { ConfigError, loadConfig } from './config.ts';
import { compose } from './compose.ts';
import { buildApp, LOG_REDACT } from './http/app.ts';
import { DataDirLockedError } from './adapters/postgres/pglite.ts';
import { DomainError } from './core/errors.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const core = await compose(config);
  const doc = await core.loadSeedFile();
  if (doc) await core.applySeed(doc);
  const app = await buildApp(core, { logger: { level: config.logLevel, redact: LOG_REDACT } });
  const shutdown = async () => {
    await app.close();
    await core.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await app.listen({ host: config.host, port: config.port });
}

main().catch((e: unknown) => {
  if (e instanceof ConfigError || e instanceof DataDirLockedError || e instanceof DomainError) {
    console.error(`scanbase: ${e.message}`);
  } else {
    console.error('scanbase: failed to start:', e);
  }
  process.exit(1);
});
