// The description of every API 2 operation of the audit log (src/http/operation-docs.ts;
// docs/audit.md): what it does, the permission the use case checks, the codes it answers.
import { API2_ACCOUNT_ERRORS as ACCOUNT, type OperationTable } from '../../../http/operation-docs.ts';

const A = '/api/2/accounts/{accountRef}/audit-log';
const READ = '`account:administrators:read` (the account owner and administrators).';
const OURS = 'Our extension, not in the vendor\'s API (docs/audit.md).';
const FILTERS = 'Filters: `user` (URN or id), `target` (as records list it), `from` and `to` (times).';

export const AUDIT_OPERATIONS: OperationTable = {
  [`GET ${A}`]: {
    does: `The account's audit log, newest first: one record per change (who, when, what, the outcome, and the permissions allowed with the grants they came from). ${FILTERS} Pages of \`pageSize\` (at most 1000); \`nextBefore\` asks for the next. ${OURS}`,
    permission: READ,
    errors: [...ACCOUNT, 'invalid-input', 'invalid-user-urn', 'read-audit-log-forbidden'],
  },
  [`GET ${A}/export`]: {
    does: `The account's audit log, oldest first, streamed: NDJSON (one record a line) or \`format=csv\`. ${FILTERS} ${OURS}`,
    permission: READ,
    errors: [...ACCOUNT, 'invalid-input', 'invalid-user-urn', 'read-audit-log-forbidden'],
  },
};
