// The description of every API 1 operation and of the connect jobs' paths
// (src/http/operation-docs.ts): what it does, the permission the use case checks
// (API 1 calls the same use cases as API 2, src/core/…), the codes it answers as {code, message}.
import type { OperationTable } from '../operation-docs.ts';

export const API1_OPERATIONS: OperationTable = {
  'GET /api/isLogged': { does: 'Health check: answers 200 `{success: true}` when the access token is recognised.', errors: [] },
};
