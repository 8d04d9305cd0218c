// The meshexport module's contract (src/modules/contract.ts; docs/mesh-export.md): export to
// mesh as a job on the job runner (Open3D in a worker process), its file and its mail.
// Listed after `jobs` and `pointclouds` (it queues jobs and reads point clouds as they do).
import path from 'node:path';
import { defineModule, type SettingsOf } from '../contract.ts';
import { meshexportSettings } from './settings.ts';
import type { Repos, Store } from '../../core/ports/repositories.ts';
import type { FilesRepos } from '../../core/ports/file-repositories.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { ObjectStore } from '../../core/ports/object-store.ts';
import { formatUrn } from '../../core/ids/urn.ts';
import type { JobRunner } from '../jobs/index.ts';
import type { ProjectAccess } from '../projects/index.ts';
import type { SendMail } from '../mail/index.ts';
import { createMeshExports, createMeshJob, MESH_JOB, type MeshExports } from './core/mesh-export.ts';
import { MESH_EXPORT_CODES } from './core/errors.ts';
import { open3dMesher } from './adapters/open3d-mesher.ts';
import { meshExportRoutes } from './http/api2.ts';
import { MESH_EXPORT_OPERATIONS } from './http/operations.ts';
import type { JobsRepos } from '../jobs/index.ts';
import type { WorkzonesRepos } from '../workzones/index.ts';

export interface MeshExportNeeds {
  store: Store<Repos & FilesRepos & WorkzonesRepos & JobsRepos>;
  clock: Clock;
  ids: Ids;
  objectStore: ObjectStore;
  projectAccess: ProjectAccess;
  jobRunner: JobRunner;
  sendMail: SendMail;
  config: { dataDir: string; meshPython: string; urnNamespace: string };
}

export const meshexportModule = defineModule<MeshExportNeeds, { meshExports: MeshExports }, Record<never, never>, never, keyof typeof MESH_EXPORT_CODES, SettingsOf<typeof meshexportSettings>>({
  name: 'meshexport',
  feature: {
    name: 'meshexport',
    enqueues: [MESH_JOB],
    create: ({ store, clock, ids, objectStore, projectAccess, jobRunner, sendMail, config }) => {
      const mesher = open3dMesher({ python: config.meshPython, objectStore });
      const job = createMeshJob({
        store, clock, mesher, sendMail, workRoot: path.join(config.dataDir, 'meshes'), fileUrn: (id) => formatUrn(config.urnNamespace, 'file', id),
      });
      return {
        offers: { meshExports: createMeshExports({ store, clock, ids, access: projectAccess, jobRunner, mesher }) },
        jobs: { [MESH_JOB]: job },
      };
    },
  },
  routes: { api2: meshExportRoutes },
  operations: { api2: MESH_EXPORT_OPERATIONS },
  errorCodes: MESH_EXPORT_CODES,
  settings: meshexportSettings,
});
