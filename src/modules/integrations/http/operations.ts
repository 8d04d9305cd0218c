// The operation docs of the integrations module's routes (src/http/operation-docs.ts): what each
// does, the permission src/modules/integrations/core/integrations.ts checks, the codes it answers.
import { API2_ACCOUNT_ERRORS as ACCOUNT, API2_ACCOUNT_PATH as A, API2_PROJECT_ERRORS as PROJECT, API2_PROJECT_PATH as P, INVALID_INPUT as INPUT, type OperationTable } from '../../../http/operation-docs.ts';

const K = `${A}/integrations/konekt/{integrationRef}`;
const HUB = [...ACCOUNT, 'invalid-newforma-konekt-hub-urn', 'newforma-konekt-hub-not-found'] as const;
const UNAVAILABLE = (who: string) => ({ code: 'integration-unavailable', when: `${who} is not configured on this service (docs/integrations.md) or does not answer` }) as const;
const READ = '`account:integrations:read` (the account owner and administrators).';
const WRITE = '`account:integrations:write` (the account owner and administrators).';
const P_READ = '`project:integrations:read` (whoever holds `workzone:annotations:write` on the root work zone).';
const P_WRITE = '`project:integrations:write` (whoever holds `workzone:annotations:write` on the root work zone).';
const MINE = 'none: the caller\'s own connection.';

export const INTEGRATION_OPERATIONS: OperationTable = {
  [`GET ${A}/integrations`]: { does: 'The Konekt hubs configured on the account, each with its projects on Konekt and the account\'s projects linked to it.', permission: READ, errors: [...ACCOUNT, 'view-account-integrations-forbidden'] },
  [`POST ${A}/integrations/konekt`]: {
    does: 'Configures a Konekt hub on the account: Konekt is asked which hub the token opens (its id, name and projects). The token is kept to reach the hub; it is never shown.',
    permission: WRITE,
    errors: [...ACCOUNT, INPUT, 'manage-account-integrations-forbidden', { code: 'integration-token-refused', when: 'Konekt refuses the token' },
      { code: 'integration-already-exists', when: 'the hub is configured on the account already' }, UNAVAILABLE('Konekt')],
  },
  [`GET ${K}`]: { does: 'One Konekt hub of the account.', permission: READ, errors: [...HUB, 'view-account-integrations-forbidden'] },
  [`PUT ${K}`]: { does: 'Changes the hub\'s options (an option left out keeps its value).', permission: WRITE, errors: [...HUB, INPUT, 'manage-account-integrations-forbidden'] },
  [`DELETE ${K}`]: { does: 'Deletes the hub\'s configuration (the projects\' configurations stay).', permission: WRITE, errors: [...HUB, 'manage-account-integrations-forbidden'] },
  [`POST ${K}/connection`]: {
    does: 'Connects the hub again with a token, which must open the same hub; its name and projects are read again from Konekt.',
    permission: WRITE,
    errors: [...HUB, INPUT, 'manage-account-integrations-forbidden', { code: 'integration-token-refused', when: 'Konekt refuses the token, or it opens another hub' }, UNAVAILABLE('Konekt')],
  },
  [`DELETE ${K}/connection`]: { does: 'Disconnects the hub (its token is dropped) without removing it.', permission: WRITE, errors: [...HUB, 'manage-account-integrations-forbidden'] },
  [`GET ${P}/integrations`]: { does: 'The project\'s Konekt and Autodesk configurations (each absent when there is none).', permission: P_READ, errors: [...PROJECT, 'view-project-integrations-forbidden'] },
  [`GET ${P}/integrations/konekt`]: { does: 'The project\'s Konekt configuration.', permission: P_READ, errors: [...PROJECT, 'view-project-integrations-forbidden', 'konekt-project-integration-not-found'] },
  [`POST ${P}/integrations/konekt`]: {
    does: 'Configures the project with a Konekt hub and project. `konektProjectId: null` creates the project on the hub (Konekt is reached with the account\'s token for the hub); a missing `syncStrategy` is the hub\'s.',
    permission: P_WRITE,
    errors: [...PROJECT, INPUT, 'manage-project-integrations-forbidden', { code: 'integration-already-exists', when: 'the project has a Konekt configuration' }, UNAVAILABLE('Konekt (for `konektProjectId: null`)')],
  },
  [`PUT ${P}/integrations/konekt`]: {
    does: 'Overwrites the project\'s Konekt configuration.',
    permission: P_WRITE,
    errors: [...PROJECT, INPUT, 'manage-project-integrations-forbidden', 'konekt-project-integration-not-found', UNAVAILABLE('Konekt (for `konektProjectId: null`)')],
  },
  [`DELETE ${P}/integrations/konekt`]: { does: 'Deletes the project\'s Konekt configuration.', permission: P_WRITE, errors: [...PROJECT, 'manage-project-integrations-forbidden', 'konekt-project-integration-not-found'] },
  [`GET ${P}/integrations/autodesk`]: { does: 'The project\'s Autodesk configuration.', permission: P_READ, errors: [...PROJECT, 'view-project-integrations-forbidden', 'autodesk-project-integration-not-found'] },
  [`POST ${P}/integrations/autodesk`]: {
    does: 'Configures the project with an Autodesk hub and project.',
    permission: P_WRITE,
    errors: [...PROJECT, INPUT, 'manage-project-integrations-forbidden', { code: 'integration-already-exists', when: 'the project has an Autodesk configuration' }],
  },
  [`PUT ${P}/integrations/autodesk`]: { does: 'Overwrites the project\'s Autodesk configuration.', permission: P_WRITE, errors: [...PROJECT, INPUT, 'manage-project-integrations-forbidden', 'autodesk-project-integration-not-found'] },
  [`DELETE ${P}/integrations/autodesk`]: { does: 'Deletes the project\'s Autodesk configuration.', permission: P_WRITE, errors: [...PROJECT, 'manage-project-integrations-forbidden', 'autodesk-project-integration-not-found'] },
  'GET /api/2/integrations/autodesk/connection': { does: 'The caller\'s Autodesk identity and the hubs and projects they reach there, as read at their last sign-in.', permission: MINE, errors: ['autodesk-connection-not-found'] },
  'DELETE /api/2/integrations/autodesk/connection': { does: 'Deletes the caller\'s Autodesk connection (its tokens with it).', permission: MINE, errors: ['autodesk-connection-not-found'] },
  'GET /api/2/integrations/autodesk/connection/url': {
    does: 'Redirects (302) to Autodesk\'s sign-in page; Autodesk comes back to `/integrations/autodesk/callback`, which keeps the connection and redirects to `redirectUri` ' +
      '(with `error` when the sign-in failed). The sign-in must come back within 10 minutes.',
    permission: MINE,
    errors: [INPUT, UNAVAILABLE('Autodesk')],
  },
  [`POST ${P}/annotations/bulk-create-integration`]: {
    does: 'Initialises integration links (pending: `url` null) on the given annotations, or on every annotation the caller reads, for each type whose prerequisites hold: ' +
      'Konekt, the project configured with a hub connected on the account; Autodesk, the project configured and the annotation\'s author connected to Autodesk. ' +
      'An existing link, a type whose prerequisites fail, and PROCORE (not offered by this service) are left out of `created`.',
    permission: '`project:annotations:create-integration-link` (whoever holds `workzone:annotations:write` on the root work zone).',
    errors: [...PROJECT, INPUT, 'invalid-annotation-urn', 'annotation-not-found', 'create-integration-link-forbidden', UNAVAILABLE('A third party asked for')],
  },
};
