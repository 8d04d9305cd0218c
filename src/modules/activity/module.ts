// The activity module's contract (src/modules/contract.ts): coalesced last-access date
// writes (projects through the projects module's repository, users through the reports module's).
import { defineModule } from '../contract.ts';
import { activityFeature } from './core/feature.ts';

export const activityModule = defineModule({ name: 'activity', feature: activityFeature });
