// The share-links module's contract (src/modules/contract.ts): share links of a project's work
// zones (vendor getShareLinks … deleteShareLink) and the /share/{id} surface that opens them
// read-only (docs/share-links.md).
import { defineModule } from '../contract.ts';
import { invalidationRules } from '../../core/events/invalidation.ts';
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { FilesRepos } from '../../core/ports/file-repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { PasswordHasher } from '../../core/ports/crypto.ts';
import type { UsageRecorder } from '../usage/index.ts';
import type { ObjectStore } from '../../core/ports/object-store.ts';
import type { ProjectAccess } from '../projects/index.ts';
import type { AnnotationsRepos } from '../annotations/index.ts';
import type { MeasurementsRepos } from '../measurements/index.ts';
import type { CropsRepos } from '../crops/index.ts';
import type { TagsRepos } from '../tags/index.ts';
import { createShareLinks, type ShareLinks } from './core/sharelinks.ts';
import { createSharedViews, type SharedViews } from './core/shared-view.ts';
import type { ShareLinksRepos } from './core/ports.ts';
import { SHARE_LINK_ERROR_CODES } from './core/errors.ts';
import type { ShareLinkEvent } from './core/events.ts';
import { shareLinksRepo } from './postgres/sharelinks-repo.ts';
import { shareLinkRoutes } from './http/api2.ts';
import { shareSurfaceRoutes } from './http/share-surface.ts';
import { SHARE_LINK_OPERATIONS } from './http/operations.ts';
import type { WorkzonesRepos } from '../workzones/index.ts';

export interface ShareLinksNeeds {
  store: Store<Repos & FilesRepos & WorkzonesRepos & ShareLinksRepos & AnnotationsRepos & MeasurementsRepos & CropsRepos & TagsRepos>;
  clock: Clock;
  ids: Ids;
  hasher: PasswordHasher;
  objectStore: ObjectStore;
  projectAccess: ProjectAccess;
  usageRecorder: UsageRecorder;
}

/** No cache holds a link or a session (each request of a session reads both): the events make nothing stale. */
const { nothing } = invalidationRules;

export const shareLinksModule = defineModule<ShareLinksNeeds, { shareLinks: ShareLinks; sharedViews: SharedViews }, ShareLinksRepos, ShareLinkEvent, keyof typeof SHARE_LINK_ERROR_CODES>({
  name: 'sharelinks',
  feature: {
    name: 'sharelinks',
    create: ({ store, clock, ids, hasher, objectStore, projectAccess, usageRecorder }) => ({
      offers: {
        shareLinks: createShareLinks({ store, clock, ids, access: projectAccess, hasher }),
        sharedViews: createSharedViews({ store, clock, ids, hasher, objectStore, usage: usageRecorder }),
      },
    }),
  },
  repositories: { shareLinks: shareLinksRepo },
  routes: { api2: shareLinkRoutes, other: { plugin: shareSurfaceRoutes } },
  operations: { api2: SHARE_LINK_OPERATIONS },
  invalidation: {
    'share-link.created': nothing,
    'share-link.updated': nothing,
    'share-link.deleted': nothing,
  },
  errorCodes: SHARE_LINK_ERROR_CODES,
});
