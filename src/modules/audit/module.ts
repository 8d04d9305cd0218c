// The audit module's contract (src/modules/contract.ts; docs/audit.md): one hash-chained,
// append-only record per change, written in the change's transaction (a commit step of the
// store) or, for a request that changed nothing in one, when it is answered (its request
// hooks); the account's query and export (API 2 extension), the chain's verification
// (`npm run admin -- audit verify`) and retention (AUDIT_RETENTION_DAYS, a periodic task).
import { defineModule, type SettingsOf } from '../contract.ts';
import { auditSettings } from './settings.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { Authorizer } from '../../core/permissions/authorizer.ts';
import { createAuditLog, type AuditLog, type AuditStore } from './core/audit-log.ts';
import { AUDIT_ERROR_CODES, type AuditErrorCode } from './core/errors.ts';
import type { AuditRepo } from './core/ports.ts';
import { auditRepo } from './postgres/audit-repo.ts';
import { auditRoutes } from './http/api2.ts';
import { auditHooks } from './http/hooks.ts';
import { AUDIT_OPERATIONS } from './http/operations.ts';

export interface AuditNeeds {
  store: AuditStore;
  clock: Clock;
  ids: Ids;
  authorizer: Authorizer;
  config: { audit: { retentionDays: number } };
}

export const auditModule = defineModule<AuditNeeds, { auditLog: AuditLog }, { audit: AuditRepo }, never, AuditErrorCode, SettingsOf<typeof auditSettings>>({
  name: 'audit',
  feature: {
    name: 'audit',
    create: ({ store, clock, ids, authorizer, config }) => {
      const auditLog = createAuditLog({ store, clock, ids, authorizer, retentionDays: config.audit.retentionDays });
      return {
        offers: { auditLog },
        tasks: config.audit.retentionDays > 0
          ? [{
              name: 'audit-retention', everySeconds: 3600, atStart: true, run: () => auditLog.retain(),
              failure: { level: 'warn', message: 'deleting audit records past their retention failed' },
            }]
          : [],
      };
    },
  },
  repositories: { audit: auditRepo },
  routes: { api2: auditRoutes },
  operations: { api2: AUDIT_OPERATIONS },
  errorCodes: AUDIT_ERROR_CODES,
  settings: auditSettings,
  requestHooks: auditHooks,
});
