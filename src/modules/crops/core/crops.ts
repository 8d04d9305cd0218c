// Crops (vendor "Crop"): saved cuts of the 3D scene, one per work zone; the viewer's
// strings are kept as given. workzone:crops:read to see one (held with reality-data:read),
// workzone:crops:write to change one (held with the measurements row); a move needs it
// on both zones. The cover is signed like a project cover and named in thumbnailBlobName.
import { projectEventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { invalidInput, notFound } from '../../../core/errors.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { CropFields, CropRecord, CropsRepos } from './ports.ts';
import { requirePermission, type Actor } from '../../../core/permissions/authorizer.ts';
import { type ProjectAccess, type ProjectScope, requireMember } from '../../projects/index.ts';
import type { Files, SignedCover, UploadItem } from '../../files/index.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { FilesRepos } from '../../../core/ports/file-repositories.ts';
import './events.ts';
import './errors.ts';
import type { WorkzonesRepos } from '../../workzones/index.ts';

export interface CropView {
  crop: CropRecord;
  accountId: string;
}

export interface CropInput extends Omit<CropFields, 'workzoneId' | 'name'> {
  workzoneRef: EntityRef;
  name: string;
}


/** Crops of a project and their covers (docs/files.md). */
export interface Crops {
  /** `workzoneRefs`: undefined = every readable zone; [] = nothing; an unknown or unreadable zone: 400. */
  listCrops(actor: Actor, a: EntityRef, p: EntityRef, workzoneRefs: EntityRef[] | undefined): Promise<CropView[]>;
  /** One crop of the project. */
  getCrop(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef): Promise<CropView>;
  /** Creates a crop in a work zone of the project. */
  createCrop(actor: Actor, a: EntityRef, p: EntityRef, input: CropInput): Promise<CropView>;
  /** PUT: overwrites every field (a missing optional one is null); a new workzoneId moves the crop. */
  updateCrop(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef, input: CropInput): Promise<CropView>;
  /** Deletes a crop and its cover. */
  deleteCrop(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef): Promise<void>;
  /** POST …/crops/{c}/cover (vendor signCropCoverURL: workzone:crops:write). */
  signCropCover(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef, item: UploadItem): Promise<SignedCover>;
}

/** What the crops use case reads (crops, work zones) and writes in its transactions (crops, uploads, events). */
export const CROPS_STORE = storeUseOf<Repos & FilesRepos & WorkzonesRepos & CropsRepos>()({ reads: ['crops', 'workzones'], writes: ['crops', 'events', 'uploads'] });
export type CropsStore = SliceOf<typeof CROPS_STORE, Repos & FilesRepos & WorkzonesRepos & CropsRepos>;

export function createCrops(deps: { store: CropsStore; clock: Clock; ids: Ids; access: ProjectAccess; files: Files }): Crops {
  const { clock, ids, access, files } = deps;
  const store = sliceOf(deps.store, CROPS_STORE);

  const view = (scope: ProjectScope, crop: CropRecord): CropView => ({ crop, accountId: scope.account.account.id });

  async function cropIn(scope: ProjectScope, ref: EntityRef): Promise<CropRecord> {
    const c = await store.repos.crops.byRef(scope.project.id, ref);
    if (!c) throw notFound('crop', refValue(ref));
    return c;
  }

  async function zoneId(scope: ProjectScope, ref: EntityRef): Promise<string> {
    const w = await store.repos.workzones.byRef(scope.project.id, ref);
    if (!w) throw notFound('workzone', refValue(ref));
    return w.id;
  }

  function fields(input: CropInput, workzoneId: string, thumbnailBlobName: string | null): CropFields {
    const name = input.name.trim();
    if (!name) throw invalidInput('name must not be blank', { field: 'name' });
    return {
      workzoneId, name, crop: input.crop, actualCrop: input.actualCrop, rotation: input.rotation, layers: input.layers ?? null,
      cameraType: input.cameraType, cameraState: input.cameraState, scan: input.scan, thumbnailBlobName,
      oview: input.oview ?? null, settings: input.settings ?? null,
    };
  }

  /** A new thumbnail must be a crop cover signed and uploaded in this project; its pending row is consumed. */
  async function thumbnail(scope: ProjectScope, given: string | null | undefined, current: string | null): Promise<{ name: string | null; pendingId?: string }> {
    if (given === undefined || given === null) return { name: null };
    if (given === current) return { name: given };
    const pending = await files.verifyCropCover(scope, given);
    return { name: given, pendingId: pending.id };
  }

  return {
    /** `workzoneRefs`: undefined = every readable zone; [] = nothing; an unknown or unreadable zone: 400. */
    async listCrops(actor: Actor, a: EntityRef, p: EntityRef, workzoneRefs: EntityRef[] | undefined): Promise<CropView[]> {
      const scope = await access.project(actor, a, p);
      requireMember(scope);
      let only: Set<string> | undefined;
      if (workzoneRefs) {
        if (!workzoneRefs.length) return [];
        only = new Set();
        for (const ref of workzoneRefs) {
          const w = await store.repos.workzones.byRef(scope.project.id, ref);
          if (!w || !scope.workzone(w.id).has('workzone:crops:read')) {
            throw invalidInput(`Unknown or unreachable work zone ${refValue(ref)}`, { workzones: refValue(ref) });
          }
          only.add(w.id);
        }
      }
      const crops = await store.repos.crops.list(scope.project.id);
      return crops
        .filter((c) => (!only || only.has(c.workzoneId)) && scope.workzone(c.workzoneId).has('workzone:crops:read'))
        .map((c) => view(scope, c));
    },

    async getCrop(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef): Promise<CropView> {
      const scope = await access.project(actor, a, p);
      requireMember(scope);
      const c = await cropIn(scope, ref);
      requirePermission(scope.workzone(c.workzoneId), 'workzone:crops:read', 'view-crop-forbidden');
      return view(scope, c);
    },

    async createCrop(actor: Actor, a: EntityRef, p: EntityRef, input: CropInput): Promise<CropView> {
      const scope = await access.project(actor, a, p);
      const w = await zoneId(scope, input.workzoneRef);
      requirePermission(scope.workzone(w), 'workzone:crops:write', 'create-crop-forbidden');
      const thumb = await thumbnail(scope, input.thumbnailBlobName, null);
      const id = ids.uuid();
      const now = clock.now();
      await store.transaction(async (repos) => {
        if (thumb.pendingId) await repos.uploads.remove(thumb.pendingId);
        await repos.crops.insert({ id, projectId: scope.project.id, ...fields(input, w, thumb.name), createdAt: now, createdBy: actor.userId });
        await repos.events.publish(projectEventOf('crop.created', scope.project, subjectOf('crop', id), { cropId: id, workzoneId: w }), now);
      });
      return view(scope, await cropIn(scope, { type: 'crop', uuid: id }));
    },

    /** PUT: overwrites every field (a missing optional one is null); a new workzoneId moves the crop. */
    async updateCrop(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef, input: CropInput): Promise<CropView> {
      const scope = await access.project(actor, a, p);
      const c = await cropIn(scope, ref);
      requirePermission(scope.workzone(c.workzoneId), 'workzone:crops:write', 'update-crop-forbidden');
      const w = await zoneId(scope, input.workzoneRef);
      if (w !== c.workzoneId) requirePermission(scope.workzone(w), 'workzone:crops:write', 'update-crop-forbidden');
      const thumb = await thumbnail(scope, input.thumbnailBlobName, c.thumbnailBlobName);
      await store.transaction(async (repos) => {
        if (thumb.pendingId) await repos.uploads.remove(thumb.pendingId);
        const now = clock.now();
        await repos.crops.update(c.id, fields(input, w, thumb.name), actor.userId, now);
        await repos.events.publish(projectEventOf('crop.updated', scope.project, subjectOf('crop', c.id), { cropId: c.id, workzoneId: w }), now);
      });
      if (c.thumbnailBlobName && c.thumbnailBlobName !== thumb.name) await files.deleteObject(scope.project.id, c.thumbnailBlobName);
      return view(scope, await cropIn(scope, { type: 'crop', uuid: c.id }));
    },

    async deleteCrop(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef): Promise<void> {
      const scope = await access.project(actor, a, p);
      const c = await cropIn(scope, ref);
      requirePermission(scope.workzone(c.workzoneId), 'workzone:crops:write', 'delete-crop-forbidden');
      await store.transaction(async (repos) => {
        await repos.crops.remove(c.id);
        await repos.events.publish(projectEventOf('crop.deleted', scope.project, subjectOf('crop', c.id), { cropId: c.id, workzoneId: c.workzoneId }), clock.now());
      });
      if (c.thumbnailBlobName) await files.deleteObject(scope.project.id, c.thumbnailBlobName);
    },

    /** POST …/crops/{c}/cover (vendor signCropCoverURL: workzone:crops:write). */
    async signCropCover(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef, item: UploadItem) {
      const scope = await access.project(actor, a, p);
      const c = await cropIn(scope, ref);
      requirePermission(scope.workzone(c.workzoneId), 'workzone:crops:write', 'update-crop-forbidden');
      return files.signCropCover(scope, c.id, c.workzoneId, actor, item);
    },
  };
}
