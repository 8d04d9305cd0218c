// The integrations module's events (docs/integrations.md "Events"), merged into the kernel's
// catalogue (src/core/events/domain-events.ts ModuleEventData); their invalidation rows are in
// module.ts. Ids and small facts only: never a token.
import type { ProjectIds } from '../../../core/events/domain-events.ts';

declare module '../../../core/events/domain-events.ts' {
  interface ModuleEventData {
    'account-integration.created': { accountId: string; integrationId: string; integration: 'NEWFORMA_KONEKT' };
    'account-integration.updated': { accountId: string; integrationId: string; integration: 'NEWFORMA_KONEKT' };
    /** Connected (a token given) or disconnected (its token dropped). */
    'account-integration.connection-changed': { accountId: string; integrationId: string; integration: 'NEWFORMA_KONEKT'; connected: boolean };
    'account-integration.deleted': { accountId: string; integrationId: string; integration: 'NEWFORMA_KONEKT' };
    'project-integration.created': ProjectIds & { integration: 'NEWFORMA_KONEKT' | 'AUTODESK' };
    'project-integration.updated': ProjectIds & { integration: 'NEWFORMA_KONEKT' | 'AUTODESK' };
    'project-integration.deleted': ProjectIds & { integration: 'NEWFORMA_KONEKT' | 'AUTODESK' };
    /** A user connected to Autodesk (or renewed the connection), or disconnected. */
    'autodesk-connection.changed': { userId: string; connected: boolean };
    /** Integration links initialised on annotations of a project (one event per request). */
    'annotation-integration-links.created': ProjectIds & { annotations: number; links: number };
    /** The batch created a link at the third party (its `url` is set). */
    'annotation-integration-link.created': ProjectIds & { annotationId: string; integration: 'NEWFORMA_KONEKT' | 'AUTODESK' | 'PROCORE'; url: string };
    /** The batch gave up on a link: the third party refused it, its configuration is gone, or no answer after every attempt. */
    'annotation-integration-link.failed': ProjectIds & { annotationId: string; integration: 'NEWFORMA_KONEKT' | 'AUTODESK' | 'PROCORE'; failure: string };
  }
}

export const INTEGRATION_EVENTS = [
  'account-integration.created', 'account-integration.updated', 'account-integration.connection-changed', 'account-integration.deleted',
  'project-integration.created', 'project-integration.updated', 'project-integration.deleted',
  'autodesk-connection.changed', 'annotation-integration-links.created', 'annotation-integration-link.created', 'annotation-integration-link.failed',
] as const;
export type IntegrationEvent = (typeof INTEGRATION_EVENTS)[number];
