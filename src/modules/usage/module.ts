// The usage module's contract (src/modules/contract.ts; docs/usage.md): API 2's usage report
// of a subscription, over the counters migration 0030's triggers keep, and the recorder of
// downloads (usageRecorder) the files, connect and share-link use cases call.
import { defineModule, type SettingsOf } from '../contract.ts';
import { usageSettings } from './settings.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Authorizer } from '../../core/permissions/authorizer.ts';
import { createUsageReports, type UsageReports } from './core/usage-report.ts';
import { createUsageRecorder } from './core/download-counts.ts';
import type { UsageRecorder } from './core/recorder.ts';
import type { UsageRepos, UsageStore } from './core/ports.ts';
import { USAGE_ERROR_CODES } from './core/errors.ts';
import { usageRepo } from './postgres/usage-repo.ts';
import { usageRoutes } from './http/api2.ts';
import { USAGE_OPERATIONS } from './http/operations.ts';

/** How often a node writes the downloads it tallied (UsageRecorder.tallyDownloads). */
const TALLY_SECONDS = 5;

export interface UsageNeeds {
  store: UsageStore;
  clock: Clock;
  authorizer: Authorizer;
  config: { hidePrivacyData: boolean };
}

export const usageModule = defineModule<UsageNeeds, { usageReports: UsageReports; usageRecorder: UsageRecorder }, UsageRepos, never, keyof typeof USAGE_ERROR_CODES, SettingsOf<typeof usageSettings>>({
  name: 'usage',
  feature: {
    name: 'usage',
    create: ({ store, clock, authorizer, config }) => {
      const usageRecorder = createUsageRecorder({ store });
      return {
        offers: {
          // A report asked of this node includes the reads it tallied until then.
          usageReports: createUsageReports({ store, clock, authorizer, hidePrivacyData: config.hidePrivacyData, beforeReport: usageRecorder.flushTally }),
          usageRecorder,
        },
        tasks: [{
          name: 'usage-tally', everySeconds: TALLY_SECONDS, atStart: false, run: usageRecorder.flushTally,
          failure: { level: 'warn', message: `writing the tallied downloads (tag reads) failed; they are kept and tried again in ${TALLY_SECONDS} s` },
        }],
        stop: usageRecorder.flushTally,
      };
    },
  },
  repositories: { usage: usageRepo },
  routes: { api2: usageRoutes },
  operations: { api2: USAGE_OPERATIONS },
  errorCodes: USAGE_ERROR_CODES,
  settings: usageSettings,
});
