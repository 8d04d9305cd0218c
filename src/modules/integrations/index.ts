// The integrations module's public face (vendor "Integrations", "Konekt", "Autodesk"): what
// other modules and the wiring may import from it. docs/integrations.md.
export type {
  AccountKonektView, CreatedLinks, Integrations, KonektHubOptions, ProjectAutodeskInput, ProjectIntegrationView, ProjectIntegrationsView, ProjectKonektInput,
} from './core/integrations.ts';
export type {
  AccountKonektRecord, AccountKonektSyncStrategy, AutodeskConnectionRecord, IntegrationType, ProjectAutodeskRecord, ProjectKonektRecord, ProjectKonektSyncStrategy,
} from './core/ports.ts';
export { INTEGRATION_TYPES } from './core/ports.ts';
