// The API 2 operations the kernel itself serves (src/http/operation-docs.ts): none today, every
// one belongs to a module and is described in its contract (src/modules/<m>/http/operations.ts),
// assembled by operationTable (src/modules/registries.ts).
import type { OperationTable } from '../operation-docs.ts';

export const API2_OPERATIONS: OperationTable = {};
