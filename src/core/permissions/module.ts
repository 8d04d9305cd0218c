// The permissions kernel's descriptor (src/core/modules.ts): the authorizer every
// account-level use case checks with (the one requirePermission path, docs/permissions.md).
import type { FeatureModule } from '../modules.ts';
import type { Store } from '../ports/repositories.ts';
import type { CacheRegistry } from '../cache/registry.ts';
import { createAuthorizer, type Authorizer } from './authorizer.ts';

export const permissionsModule: FeatureModule<{ store: Store; caches: CacheRegistry; config: { accessCacheEntries: number } }, { authorizer: Authorizer }> = {
  name: 'permissions',
  create: ({ store, caches, config }) => ({ offers: { authorizer: createAuthorizer({ store, caches, maxEntries: config.accessCacheEntries }) } }),
};
