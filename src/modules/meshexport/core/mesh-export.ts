// Export to mesh (vendor BETA postExportToMesh; docs/mesh-export.md): a job on the job runner
// builds a triangle mesh from chosen scans of a work zone (the Mesher port), stores it as an
// OBJ file of the zone and mails the requester, both in the transaction that records the
// job's end. Without a mesher on the node the request answers 503 `mesher-unavailable`.
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import path from 'node:path';
import fs from 'node:fs/promises';
import { DomainError, invalidInput, notFound } from '../../../core/errors.ts';
import { projectEventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { refValue, type EntityRef } from '../../../core/ids/urn.ts';
import { requirePermission, type Actor } from '../../../core/permissions/authorizer.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { JobRecord } from '../../../core/ports/job-handler.ts';
import { blobKey } from '../../../core/ports/object-store.ts';
import type { FileRecord, FilesRepos } from '../../../core/ports/file-repositories.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { JobHandler, JobRunner } from '../../jobs/index.ts';
import type { ProjectAccess } from '../../projects/index.ts';
import type { SendMail, MailRepos } from '../../mail/index.ts';
import { formatOf } from '../../files/index.ts';
import { MESHABLE_EXTENSIONS, MeshFailure, type BuiltMesh, type CropRegion, type Mesher } from './ports.ts';
import type { JobsRepos } from '../../jobs/index.ts';
import type { WorkzonesRepos } from '../../workzones/index.ts';

export const MESH_JOB = 'export-to-mesh';
/** The vendor's bounds on `resolution` (metres). */
export const MIN_RESOLUTION = 0.02;
export const MAX_RESOLUTION = 0.2;
/** The output formats this mesher writes (the vendor also names fbx, stl and usd). */
export const MESH_FORMATS: ReadonlySet<string> = new Set(['obj']);

export interface MeshExportRequest {
  workzoneRef: EntityRef;
  scanRefs: EntityRef[];
  name: string;
  outputFormat: string;
  resolution: number;
  regions: CropRegion[];
}

interface MeshPayload {
  accountId: string;
  projectId: string;
  workzoneId: string;
  fileId: string;
  blobName: string;
  name: string;
  resolution: number;
  scanIds: string[];
  regions: CropRegion[];
  userId: string;
}

export interface MeshExportStarted {
  jobId: string;
  accountId: string;
  /** The file the mesh will be: listed in the zone once the job is done (size and md5 are then known). */
  file: FileRecord;
}

/** Starting mesh exports. */
export interface MeshExports {
  /**
   * Needs `workzone:reality-data:read` and `workzone:export-jobs-reality-data:write` on the
   * zone; every scan a point cloud of that zone; a mesher on this node (503 otherwise).
   */
  postExportToMesh(actor: Actor, accountRef: EntityRef, projectRef: EntityRef, req: MeshExportRequest): Promise<MeshExportStarted>;
}

const EXPORT_PERMISSIONS = ['workzone:reality-data:read', 'workzone:export-jobs-reality-data:write'] as const;

function plannedFile(p: MeshPayload, now: Date, size = 0, md5 = ''): FileRecord {
  return {
    id: p.fileId, api1Id: p.fileId, projectId: p.projectId, workzoneId: p.workzoneId, category: 'model', formatId: formatOf('obj').id,
    name: p.name, extension: 'obj', size, md5, blobName: p.blobName, translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 },
    scale: null, createdAt: now, createdBy: p.userId, updatedAt: null, updatedBy: null, importedAt: now,
  };
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const MESH_EXPORTS_STORE = storeUseOf<Repos & FilesRepos & WorkzonesRepos & JobsRepos>()({ reads: ['files', 'workzones'], writes: ['jobs'] });

export function createMeshExports(deps: { store: SliceOf<typeof MESH_EXPORTS_STORE, Repos & FilesRepos & WorkzonesRepos & JobsRepos>; clock: Clock; ids: Ids; access: ProjectAccess; jobRunner: JobRunner; mesher: Mesher }): MeshExports {
  const { clock, ids, access, jobRunner, mesher } = deps;
  const store = sliceOf(deps.store, MESH_EXPORTS_STORE);
  return {
    async postExportToMesh(actor, accountRef, projectRef, req) {
      const scope = await access.project(actor, accountRef, projectRef);
      const zone = await store.repos.workzones.byRef(scope.project.id, req.workzoneRef);
      if (!zone) throw notFound('workzone', refValue(req.workzoneRef));
      requirePermission(scope.workzone(zone.id), EXPORT_PERMISSIONS, 'create-export-to-mesh-forbidden');
      if (!MESH_FORMATS.has(req.outputFormat)) {
        throw invalidInput(`This mesher writes ${[...MESH_FORMATS].join(', ')}; not ${req.outputFormat}`, { field: 'outputFormat', supported: [...MESH_FORMATS] });
      }
      if (!(req.resolution >= MIN_RESOLUTION && req.resolution <= MAX_RESOLUTION)) {
        throw invalidInput(`resolution must be within [${MIN_RESOLUTION}, ${MAX_RESOLUTION}] metres`, { field: 'resolution' });
      }
      const scanIds: string[] = [];
      for (const [i, ref] of req.scanRefs.entries()) {
        const f = await store.repos.files.byRef(scope.project.id, ref);
        if (!f) throw notFound('file', refValue(ref));
        if (f.workzoneId !== zone.id || f.category !== 'scan' || !MESHABLE_EXTENSIONS.has(f.extension.toLowerCase())) {
          throw invalidInput(`scans[${i}] must be an E57, LAS, LAZ or PLY scan of the work zone`, { field: `scans[${i}]`, fileId: f.id });
        }
        if (!scanIds.includes(f.id)) scanIds.push(f.id);
      }
      if (!(await mesher.available())) throw new DomainError('unavailable', 'mesher-unavailable', 'No mesher is installed on this node (Open3D: python3-open3d)');
      const fileId = ids.uuid();
      const payload: MeshPayload = {
        accountId: scope.project.accountId, projectId: scope.project.id, workzoneId: zone.id, fileId, blobName: `${fileId}.obj`, name: req.name,
        resolution: req.resolution, scanIds, regions: req.regions, userId: actor.userId,
      };
      const jobId = await store.transaction((repos) => jobRunner.enqueue(repos, {
        kind: MESH_JOB, payload: payload as unknown as Record<string, unknown>, subjects: [`workzone:${zone.id}`], createdBy: actor.userId, maxAttempts: 2,
      }));
      jobRunner.kick();
      return { jobId, accountId: scope.project.accountId, file: plannedFile(payload, clock.now()) };
    },
  };
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const MESH_JOB_STORE = storeUseOf<FilesRepos>()({ reads: ['files'], writes: [] });

/** The job: build and store the mesh (run), then the file row, its event and the mail (finished, in the job's closing transaction). */
export function createMeshJob(deps: { store: SliceOf<typeof MESH_JOB_STORE, FilesRepos>; clock: Clock; mesher: Mesher; sendMail: SendMail; workRoot: string; fileUrn: (id: string) => string }): JobHandler {
  const { clock, mesher, sendMail, workRoot } = deps;
  const store = sliceOf(deps.store, MESH_JOB_STORE);

  async function notify(repos: Pick<Repos & MailRepos, 'outbox' | 'users'>, userId: string, subject: string, text: string) {
    const user = await repos.users.byId(userId);
    if (user) await sendMail(repos, { to: user.email, subject, text, links: [] });
  }

  return {
    async run(job: JobRecord): Promise<BuiltMesh> {
      const p = job.payload as unknown as MeshPayload;
      const inputs = [];
      for (const id of p.scanIds) {
        const f = await store.repos.files.byRef(p.projectId, { uuid: id });
        if (f) inputs.push({ key: blobKey(p.projectId, f.blobName), extension: f.extension.toLowerCase(), name: `${f.name}.${f.extension}` });
      }
      if (!inputs.length) throw new DomainError('not-found', 'file-not-found', 'Every scan of the export was deleted');
      if (!(await mesher.available())) throw new DomainError('unavailable', 'mesher-unavailable', 'No mesher is installed on this node');
      const workDir = path.join(workRoot, job.id);
      await fs.mkdir(workDir, { recursive: true });
      try {
        return await mesher.build({ inputs, regions: p.regions, resolution: p.resolution, outputKey: blobKey(p.projectId, p.blobName), workDir });
      } catch (e) {
        // The input makes no mesh: final (a DomainError ends the job at once), its reason mailed.
        if (e instanceof MeshFailure) throw new DomainError('invalid', 'invalid-input', e.message);
        throw e;
      } finally {
        await fs.rm(workDir, { recursive: true, force: true });
      }
    },
    accountOf: (job) => (job.payload as unknown as MeshPayload).accountId,
    async finished(repos, job, outcome) {
      const p = job.payload as unknown as MeshPayload;
      if (outcome.state === 'failed') {
        await notify(repos, p.userId, `Export to mesh failed: ${p.name}`, `The mesh "${p.name}" could not be built: ${outcome.error}`);
        return;
      }
      const built = outcome.result as BuiltMesh;
      const now = clock.now();
      const file = plannedFile(p, now, built.size, built.md5);
      const { api1Id: _api1Id, updatedAt: _u, updatedBy: _b, ...row } = file;
      await repos.files.insert(row);
      await repos.events.publish(projectEventOf('file.registered', { id: p.projectId, accountId: p.accountId }, subjectOf('file', file.id), {
        fileId: file.id, workzoneId: p.workzoneId, category: 'model',
      }), now);
      await notify(repos, p.userId, `Export to mesh finished: ${p.name}`,
        `The mesh "${p.name}.obj" is ready in its work zone: ${built.triangles} triangles, ${built.vertices} vertices, from ${built.points} points.\n` +
        `File: ${deps.fileUrn(file.id)}\n`);
    },
  };
}
