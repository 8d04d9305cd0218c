// The description of every API 2 operation of the SCIM token (src/http/operation-docs.ts;
// docs/identity.md): what it does, the permission the use case checks, the codes it answers.
import { API2_ACCOUNT_ERRORS as ACCOUNT, type OperationTable } from '../../../http/operation-docs.ts';

const T = '/api/2/accounts/{accountRef}/scim/token';
const OURS = 'Our extension, not in the vendor\'s API (docs/identity.md "SCIM provisioning").';

export const SCIM_OPERATIONS: OperationTable = {
  [`GET ${T}`]: {
    does: `Whether the account has a SCIM token, when and by whom it was made, and the SCIM base address (\`<PUBLIC_URL>/scim/v2\`); never the token. ${OURS}`,
    permission: '`account:administrators:read` (the account owner and administrators).',
    errors: [...ACCOUNT, 'read-scim-forbidden'],
  },
  [`POST ${T}`]: {
    does: `Creates the account's SCIM bearer token and answers it once (201); the token before it stops working at once (rotation). Stored as its SHA-256 only. ${OURS}`,
    permission: '`account:administrators:write` (the account owner and administrators).',
    errors: [...ACCOUNT, 'manage-scim-forbidden'],
  },
  [`DELETE ${T}`]: {
    does: `Revokes the account's SCIM token: provisioning stops until a new one is made. ${OURS}`,
    permission: '`account:administrators:write` (the account owner and administrators).',
    errors: [...ACCOUNT, 'manage-scim-forbidden', 'scim-token-not-found'],
  },
};
