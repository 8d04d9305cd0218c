// The operation docs of the meshexport module's route (src/http/operation-docs.ts).
import type { OperationTable } from '../../../http/operation-docs.ts';

export const MESH_EXPORT_OPERATIONS: OperationTable = {
  'POST /api/2/accounts/{accountRef}/projects/{projectRef}/jobs/export-to-mesh': {
    does: 'Queues a job that builds a triangle mesh (Open3D screened Poisson reconstruction at `resolution` metres) from the chosen E57/LAS/LAZ/PLY scans of the work zone, ' +
      'keeping only the points inside one of the `items`\' crop regions when any is given (a region: the points where a·x + b·y + c·z + d ≥ 0 for each of its planes). ' +
      'The mesh becomes an OBJ model file of the zone (the answer\'s `file`, listed once the job is done) and the requester is mailed either way. ' +
      'Only `obj` is written (fbx, stl and usd are refused).',
    permission: '`workzone:reality-data:read` and `workzone:export-jobs-reality-data:write` on the work zone.',
    errors: ['invalid-account-urn', 'account-not-found', 'invalid-project-urn', 'project-not-found', 'not-member-of-project', 'deleted-project',
      'invalid-workzone-urn', 'workzone-not-found', 'invalid-file-urn', 'file-not-found', 'invalid-input', 'create-export-to-mesh-forbidden',
      { code: 'mesher-unavailable', when: 'no mesher is installed on the node (python3 with Open3D; MESH_PYTHON)' }],
  },
};
