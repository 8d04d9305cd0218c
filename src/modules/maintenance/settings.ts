// The maintenance module's settings (docs/operations.md "Housekeeping"): how long the janitor
// keeps done and failed jobs, outbox rows and domain events, and how much one pass deletes.
import { integer } from '../../kernel-config.ts';
import type { ModuleSettings } from '../contract.ts';

export const maintenanceSettings: ModuleSettings<{ retention: { days: number; batch: number } }> = {
  rows: [
    {
      env: 'RETENTION_DAYS',
      default: '`30`',
      does: 'days done and failed jobs, outbox rows and domain events are kept before the housekeeping pass deletes them (1–36500; see [docs/operations.md](docs/operations.md#housekeeping))',
    },
    { env: 'RETENTION_BATCH', default: '`10000`', does: 'the most rows of each kind one housekeeping pass deletes (1–1000000); the rest go in the next passes' },
  ],
  read: (env) => ({ retention: { days: integer(env, 'RETENTION_DAYS', 30, 1, 36_500), batch: integer(env, 'RETENTION_BATCH', 10_000, 1, 1_000_000) } }),
};
