// The activity module's descriptor (src/core/modules.ts).
import type { FeatureModule } from '../modules.ts';
import type { Repos, Store } from '../ports/repositories.ts';
import type { ReportsRepo } from '../../modules/reports/index.ts';
import type { Clock } from '../ports/clock.ts';
import { errorFields, type Logger } from '../ports/telemetry.ts';
import { createActivity, type Activity } from './activity.ts';

export const activityModule: FeatureModule<{ store: Store<Repos & { reports: ReportsRepo }>; clock: Clock; logger: Logger }, { activity: Activity }> = {
  name: 'activity',
  create: ({ store, clock, logger }) => ({
    offers: {
      activity: createActivity({
        store, clock, onError: (e) => logger.warn(errorFields(e), 'activity date write failed; the next call retries'),
      }),
    },
  }),
};
