// The SCIM module's contract (src/modules/contract.ts; docs/identity.md "SCIM provisioning"):
// SCIM 2.0 at /scim/v2 for an account's identity provider (Users, Groups, discovery), the
// account's SCIM token on API 2, its tables' repository, operation docs and error codes.
import { defineModule } from '../contract.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { Authorizer } from '../../core/permissions/authorizer.ts';
import {
  createScimProvisioning, createScimTokens, SCIM_ERROR_CODES,
  type ScimErrorCode, type ScimProvisioning, type ScimRepo, type ScimStore, type ScimTokens,
} from './core/index.ts';
import { scimRepo } from './postgres/scim-repo.ts';
import { scimTokenRoutes } from './http/api2.ts';
import { scimRoutes } from './http/scim.ts';
import { SCIM_OPERATIONS } from './http/operations.ts';

export interface ScimNeeds {
  store: ScimStore;
  clock: Clock;
  ids: Ids;
  authorizer: Authorizer;
  config: { publicUrl: string };
}

export const scimModule = defineModule<ScimNeeds, { scimTokens: ScimTokens; scimProvisioning: ScimProvisioning }, { scim: ScimRepo }, never, ScimErrorCode>({
  name: 'scim',
  feature: {
    name: 'scim',
    create: ({ store, clock, ids, authorizer, config }) => ({
      offers: {
        scimTokens: createScimTokens({ store, clock, ids, authorizer }),
        scimProvisioning: createScimProvisioning({ store, clock, ids, baseUrl: `${config.publicUrl}/scim/v2` }),
      },
    }),
  },
  repositories: { scim: scimRepo },
  routes: { api2: scimTokenRoutes, other: { plugin: scimRoutes, prefix: '/scim/v2' } },
  operations: { api2: SCIM_OPERATIONS },
  errorCodes: SCIM_ERROR_CODES,
});
