// The operation docs of the values module's routes (src/http/operation-docs.ts).
import type { OperationTable } from '../../../http/operation-docs.ts';

const VALUES = 'A fixed list, the same for every caller.';

export const VALUES_OPERATIONS: OperationTable = {
  'GET /api/2/values/permissions': {
    does: `Every permission name the service knows (spec "Permissions"), in the spec's order: the names roles hold and the engine evaluates. ${VALUES}`,
    errors: [],
  },
  'GET /api/2/values/spatial-references': {
    does: 'The spatial references a project\'s `spatialReference` may name: every coordinate reference system of the EPSG registry ' +
      '(`authName` EPSG, `code`, `name`, `type` in PROJ\'s words: projected, geographic 2D, geographic 3D, geocentric, vertical, compound, ' +
      `engineering, derived projected), by code; \`deprecated\` is false for each (the registry's valid systems). ${VALUES}`,
    errors: [],
  },
};
