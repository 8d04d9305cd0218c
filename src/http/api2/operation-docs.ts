// The description of the API 2 operations of src/core's modules (src/http/operation-docs.ts; the
// slices', the token service's among them, are in their contracts): what each does, the permission
// the use case checks (src/core/…), the codes it answers.
import type { OperationTable } from '../operation-docs.ts';

const VALUES = 'A fixed list, the same for every caller.';

export const API2_OPERATIONS: OperationTable = {
  // Values.
  'GET /api/2/values/ai-detection-classes': { does: `The classes an AI detection may look for. ${VALUES}`, errors: [] },
};
