// The integrations module's contract (src/modules/contract.ts): an account's Konekt hubs, a
// project's Konekt and Autodesk configurations, the users' Autodesk connections (the OAuth flow
// and its callback page) and integration links on annotations (docs/integrations.md).
import { defineModule, type SettingsOf } from '../contract.ts';
import { integrationsSettings } from './settings.ts';
import { invalidationRules } from '../../core/events/invalidation.ts';
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { Authorizer } from '../../core/permissions/authorizer.ts';
import type { ProjectAccess } from '../projects/index.ts';
import type { IntegrationsConfig } from './settings.ts';
import type { Annotations } from '../annotations/index.ts';
import { createIntegrations, type Integrations } from './core/integrations.ts';
import { createLinkBatch, type LinkBatch } from './core/link-batch.ts';
import type { IntegrationsRepos } from './core/ports.ts';
import { INTEGRATION_ERROR_CODES, type IntegrationErrorCode } from './core/errors.ts';
import type { IntegrationEvent } from './core/events.ts';
import { integrationsRepo } from './postgres/integrations-repo.ts';
import { createKonektClient } from './adapters/konekt-client.ts';
import { createAutodeskClient } from './adapters/autodesk-client.ts';
import { integrationRoutes } from './http/api2.ts';
import { autodeskCallbackPage } from './http/pages.ts';
import { createSecretBox } from '../../core/crypto/secret-box.ts';
import { INTEGRATION_OPERATIONS } from './http/operations.ts';

export interface IntegrationsNeeds {
  store: Store<Repos & IntegrationsRepos>;
  clock: Clock;
  ids: Ids;
  authorizer: Authorizer;
  projectAccess: ProjectAccess;
  annotations: Annotations;
  config: { publicUrl: string; integrations: IntegrationsConfig };
}

/** Seconds between passes of the batch that creates pending links at the third party. */
const LINK_BATCH_SECONDS = 15;

/** No cache holds integrations (each read goes to the database): their events make nothing stale. */
const { nothing } = invalidationRules;

export const integrationsModule = defineModule<IntegrationsNeeds, { integrations: Integrations; integrationLinks: LinkBatch }, IntegrationsRepos, IntegrationEvent, IntegrationErrorCode, SettingsOf<typeof integrationsSettings>>({
  name: 'integrations',
  feature: {
    name: 'integrations',
    create: ({ store, clock, ids, authorizer, projectAccess, annotations, config }) => {
      const { konektApiUrl, autodesk, timeoutSeconds } = config.integrations;
      const konekt = konektApiUrl ? createKonektClient({ apiUrl: konektApiUrl, timeoutSeconds }) : null;
      const autodeskClient = autodesk ? createAutodeskClient({ ...autodesk, timeoutSeconds }) : null;
      const secrets = createSecretBox({ sealingKey: (candidate) => store.repos.settings.keepFirst('integrations.sealing_key', candidate), ids });
      const integrations = createIntegrations({
        store, clock, ids, authorizer, access: projectAccess, annotations, publicUrl: config.publicUrl, konekt, autodesk: autodeskClient, secrets,
      });
      const integrationLinks = createLinkBatch({ store, clock, konekt, autodesk: autodeskClient, secrets, publicUrl: config.publicUrl, timeoutSeconds });
      return {
        offers: { integrations, integrationLinks },
        // Sign-ins are started only with Autodesk configured: without it there is nothing to expire.
        tasks: [
          // Tokens kept before they were sealed (docs/integrations.md "Tokens at rest"): sealed at start, and again hourly
          // (a row restored from an older snapshot).
          {
            name: 'integration-token-sealing', everySeconds: 3600, atStart: true, run: () => integrations.sealPlainTokens(),
            failure: { level: 'warn', message: 'sealing the integration tokens kept in plain text failed' },
          },
          // Pending links are created at the third party (docs/integrations.md "Integration links"); on every node (a
          // link is claimed by one at a time), at start too (links left by a node that stopped).
          {
            name: 'integration-links', everySeconds: LINK_BATCH_SECONDS, atStart: true, run: () => integrationLinks.run(),
            failure: { level: 'warn', message: 'creating integration links at the third party failed' },
          },
          ...(autodesk ? [{
            name: 'autodesk-sign-ins', everySeconds: 600, atStart: false, run: () => integrations.pruneAutodeskStates(),
            failure: { level: 'warn' as const, message: 'deleting expired Autodesk sign-ins failed' },
          }] : []),
        ],
      };
    },
  },
  repositories: { integrations: integrationsRepo },
  routes: { api2: integrationRoutes, other: { plugin: autodeskCallbackPage } },
  operations: { api2: INTEGRATION_OPERATIONS },
  invalidation: {
    'account-integration.created': nothing,
    'account-integration.updated': nothing,
    'account-integration.connection-changed': nothing,
    'account-integration.deleted': nothing,
    'project-integration.created': nothing,
    'project-integration.updated': nothing,
    'project-integration.deleted': nothing,
    'autodesk-connection.changed': nothing,
    'annotation-integration-links.created': nothing,
    // The annotations' reads take their links from the table each time: nothing to drop.
    'annotation-integration-link.created': nothing,
    'annotation-integration-link.failed': nothing,
  },
  errorCodes: INTEGRATION_ERROR_CODES,
  settings: integrationsSettings,
});
