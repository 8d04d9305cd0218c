// The activity module's descriptor (src/core/modules.ts).
import type { FeatureModule } from '../../../core/modules.ts';
import type { Repos, Store } from '../../../core/ports/repositories.ts';
import type { ReportsRepo } from '../../reports/index.ts';
import type { ProjectsRepos } from '../../projects/index.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import { errorFields, type Logger } from '../../../core/ports/telemetry.ts';
import type { CacheRegistry } from '../../../core/cache/registry.ts';
import { createActivity } from './activity.ts';
import type { Activity } from './activity-use.ts';

export const activityFeature: FeatureModule<
  { store: Store<Repos & ProjectsRepos & { reports: ReportsRepo }>; clock: Clock; logger: Logger; caches: CacheRegistry; config: { activityCacheEntries: number } },
  { activity: Activity }
> = {
  name: 'activity',
  create: ({ store, clock, logger, caches, config }) => ({
    offers: {
      activity: createActivity({
        store, clock, caches, maxEntries: config.activityCacheEntries, onError: (e) => logger.warn(errorFields(e), 'activity date write failed; the next call retries'),
      }),
    },
  }),
};
