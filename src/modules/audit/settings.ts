// The audit module's setting (docs/audit.md): how long a record is kept.
import { integer } from '../../kernel-config.ts';
import type { ModuleSettings } from '../contract.ts';

export const auditSettings: ModuleSettings<{ audit: { retentionDays: number } }> = {
  rows: [
    {
      env: 'AUDIT_RETENTION_DAYS',
      default: '`0`',
      does: 'days an audit record is kept; older ones are deleted hourly, the chain staying verifiable from its anchor (0: kept for ever; see [docs/audit.md](docs/audit.md))',
    },
  ],
  read: (env) => ({ audit: { retentionDays: integer(env, 'AUDIT_RETENTION_DAYS', 0, 0, 36_500) } }),
};
