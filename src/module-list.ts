// The node's feature modules, in the order they are built (docs/architecture.md "Adding a
// module"): each is built from the adapters (src/compose.ts) and the offers of the modules
// above it, so a need nothing above supplies fails tsc (src/modules/registries.ts). Every
// module is a slice under src/modules and brings its whole contract (src/modules/contract.ts:
// repositories, routes, operation docs, events' invalidation rows, error codes, settings); the
// registries are assembled from this list. The one kernel row is the permissions descriptor
// (src/core/permissions/module.ts: the authorizer every module opens with).
//
// Adding a module: one import and one row here; nothing else shared is edited.
import { oauthModule } from './modules/oauth/module.ts';
import { mailModule } from './modules/mail/module.ts';
import { permissionsModule } from './core/permissions/module.ts';
import { valuesModule } from './modules/values/module.ts';
import { accountsModule } from './modules/accounts/module.ts';
import { rolesModule } from './modules/roles/module.ts';
import { groupsModule } from './modules/groups/module.ts';
import { activityModule } from './modules/activity/module.ts';
import { limitsModule } from './modules/limits/module.ts';
import { projectsModule } from './modules/projects/module.ts';
import { membersModule } from './modules/members/module.ts';
import { reportsModule } from './modules/reports/module.ts';
import { filesModule } from './modules/files/module.ts';
import { uploadsModule } from './modules/uploads/module.ts';
import { cropsModule } from './modules/crops/module.ts';
import { annotationsModule } from './modules/annotations/module.ts';
import { measurementsModule } from './modules/measurements/module.ts';
import { connectModule } from './modules/connect/module.ts';
import { jobsModule } from './modules/jobs/module.ts';
import { usersModule } from './modules/users/module.ts';
import { workzonesModule } from './modules/workzones/module.ts';
import { tagsModule } from './modules/tags/module.ts';
import { operatorModule } from './modules/operator/module.ts';
import { sandboxModule } from './modules/sandbox/module.ts';
import { maintenanceModule } from './modules/maintenance/module.ts';
import { webhooksModule } from './modules/webhooks/module.ts';
import { pointcloudsModule } from './modules/pointclouds/module.ts';
import { ssoModule } from './modules/sso/module.ts';
import { scimModule } from './modules/scim/module.ts';
import { shareLinksModule } from './modules/sharelinks/module.ts';
import { usageModule } from './modules/usage/module.ts';
import { pnidModule } from './modules/pnid/module.ts';
import { meshexportModule } from './modules/meshexport/module.ts';
import { integrationsModule } from './modules/integrations/module.ts';
import { auditModule } from './modules/audit/module.ts';

export const MODULES = [
  oauthModule,
  mailModule,
  permissionsModule,
  valuesModule,
  usageModule,
  accountsModule,
  rolesModule,
  groupsModule,
  activityModule,
  limitsModule,
  projectsModule,
  membersModule,
  reportsModule,
  filesModule,
  uploadsModule,
  cropsModule,
  annotationsModule,
  measurementsModule,
  connectModule,
  jobsModule,
  usersModule,
  workzonesModule,
  tagsModule,
  operatorModule,
  sandboxModule,
  maintenanceModule,
  webhooksModule,
  pointcloudsModule,
  ssoModule,
  scimModule,
  shareLinksModule,
  pnidModule,
  meshexportModule,
  integrationsModule,
  auditModule,
] as const;
