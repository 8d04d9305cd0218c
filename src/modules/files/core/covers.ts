// Covers (CONTRACT §7, docs/files.md): the project cover (signed, uploaded, registered as
// the project's) and crop covers (signed here; the crops module registers them with the
// crop). A cover is a PNG or JPEG whose stored bytes are checked to be that image.
import { notFound } from '../../../core/errors.ts';
import type { EntityRef } from '../../../core/ids/urn.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { PendingUploadRecord, FilesRepos } from '../../../core/ports/file-repositories.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import { blobKey, type ObjectStore } from '../../../core/ports/object-store.ts';
import { errorFields, silentLogger, type Logger } from '../../../core/ports/telemetry.ts';
import { requirePermission, type Actor } from '../../../core/permissions/authorizer.ts';
import type { ProjectScope, ProjectsRepos } from '../../projects/index.ts';
import { projectEventOf, subjectOf } from '../../../core/events/domain-events.ts';
import type { SigningDeps } from './uploads.ts';
import {
  checkCover, matchesPending, pendingUploadRecord, uploadError, uploadItemOf,
  type RegisteredFile, type SignedFile, type UploadItem,
} from './upload-items.ts';
import type { AccountsRepos } from '../../accounts/index.ts';

export interface SignedCover {
  provider: string;
  expiresIn: number;
  file: SignedFile;
}

export interface Covers {
  /** POST …/projects/{p}/cover (vendor signProjectCoverURL: project:project:update-details). */
  signProjectCover(actor: Actor, a: EntityRef, p: EntityRef, item: UploadItem): Promise<SignedCover>;
  /** PUT …/projects/{p}/cover: the uploaded cover becomes the project's (matched by blobName, else by name, size and MD5). */
  registerProjectCover(actor: Actor, a: EntityRef, p: EntityRef, item: UploadItem & { blobName?: string }): Promise<RegisteredFile>;
  /** Signs a crop's cover (used by the crops module, which checks its permission). */
  signCropCover(scope: ProjectScope, cropId: string, workzoneId: string, actor: Actor, item: UploadItem): Promise<SignedCover>;
  /** A crop cover named in a crop write: a live crop-cover upload of the project, present in the store. */
  verifyCropCover(scope: ProjectScope, blobName: string): Promise<PendingUploadRecord>;
  /** Deletes an object no row names any more (a replaced crop thumbnail); a failure is logged, the deletion queue retries it. */
  deleteObject(projectId: string, blobName: string): Promise<void>;
}

const UPDATE_DETAILS = 'project:project:update-details';

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const COVERS_STORE = storeUseOf<Repos & ProjectsRepos & FilesRepos & AccountsRepos>()({ reads: ['files', 'uploads'], writes: ['events', 'files', 'projects', 'subscriptions', 'uploads', 'users'] });

export function createCovers(
  deps: SigningDeps & { store: SliceOf<typeof COVERS_STORE, Repos & ProjectsRepos & FilesRepos & AccountsRepos>; objectStore: Pick<ObjectStore, 'delete'>; logger?: Logger },
): Covers {
  const { clock, ids, access, objects, objectStore, checkCapacities } = deps;
  const store = sliceOf(deps.store, COVERS_STORE);
  const logger = deps.logger ?? silentLogger;

  async function projectWithUpdateDetails(actor: Actor, a: EntityRef, p: EntityRef): Promise<ProjectScope> {
    const scope = await access.project(actor, a, p);
    requirePermission(scope.permissions, UPDATE_DETAILS, 'update-project-forbidden');
    return scope;
  }

  /** A cover's pending row (counted against the storage quota) and its signed URL. */
  async function signCover(
    scope: ProjectScope, actor: Actor, item: UploadItem, target: { kind: 'project-cover' | 'crop-cover'; workzoneId: string | null; cropId: string | null },
  ): Promise<SignedCover> {
    const c = checkCover(item);
    const now = clock.now();
    const s = { ...c, ...(await objects.signUpload(scope.project.id, c, now)) };
    await store.transaction(async (repos) => {
      await checkCapacities(repos, { subscriptionId: scope.project.subscriptionId, userId: actor.userId, adding: new Map(), touched: new Set(), addingBytes: c.size });
      await repos.uploads.insert(pendingUploadRecord(
        ids.uuid(), s, { projectId: scope.project.id, ...target, category: null }, actor.userId, now, deps.pendingTtlSeconds,
      ));
    });
    return { provider: objects.provider, expiresIn: objects.urlTtlSeconds, file: { ...uploadItemOf(c), url: s.url, blobName: s.blobName } };
  }

  const logFailedDelete = (blobName: string, message: string) => (e: unknown) => logger.warn({ ...errorFields(e), blobName }, message);

  /**
   * Deletes a replaced project cover's object, only when no file or crop thumbnail names
   * that blob (a cover set before covers were checked may be another object's name). A
   * failed delete does not fail the committed registration: the row update queued the
   * blob (migration 0010), and the sweeper deletes it unless a row names it.
   */
  async function deleteReplacedCover(projectId: string, blobName: string): Promise<void> {
    if (await store.repos.files.byBlobName(projectId, blobName)) return;
    if (await store.repos.files.cropThumbnail(projectId, blobName)) return;
    await objectStore
      .delete(blobKey(projectId, blobName))
      .catch(logFailedDelete(blobName, 'replaced cover not deleted now; the deletion queue retries it'));
  }

  return {
    async signProjectCover(actor, a, p, item) {
      const scope = await projectWithUpdateDetails(actor, a, p);
      return signCover(scope, actor, item, { kind: 'project-cover', workzoneId: null, cropId: null });
    },

    async registerProjectCover(actor, a, p, item) {
      const scope = await projectWithUpdateDetails(actor, a, p);
      const c = checkCover(item);
      const now = clock.now();
      const live = await store.repos.uploads.listLive(scope.project.id, 'project-cover', now);
      const pending = live.find((u) =>
        item.blobName ? u.blobName === item.blobName : u.extension === c.extension && u.size === c.size && u.md5 === c.md5 && u.name === c.name,
      );
      if (!pending) throw uploadError('unknown-blob-name', 'No cover upload was signed with these values', item.blobName ?? '');
      matchesPending(pending, c, now);
      await objects.verifyObject(scope.project.id, pending);
      await objects.verifyCoverImage(scope.project.id, pending);
      const previous = await store.transaction(async (repos) => {
        const locked = await repos.uploads.byBlobNameForUpdate(scope.project.id, pending.blobName);
        if (!locked) throw uploadError('unknown-blob-name', 'The cover upload was registered or swept meanwhile', pending.blobName);
        const project = await repos.projects.byRef(scope.project.accountId, { uuid: scope.project.id });
        if (!project) throw notFound('project', scope.project.id);
        await repos.projects.update(project.id, { ...project, coverBlobName: pending.blobName }, actor.userId, now);
        await repos.uploads.remove(locked.id);
        await repos.events.publish(projectEventOf('project.cover-changed', project, subjectOf('project', project.id), {}), now);
        return project.coverBlobName;
      });
      if (previous && previous !== pending.blobName) await deleteReplacedCover(scope.project.id, previous);
      return { ...uploadItemOf(c), id: pending.id, blobName: pending.blobName };
    },

    signCropCover(scope, cropId, workzoneId, actor, item) {
      return signCover(scope, actor, item, { kind: 'crop-cover', workzoneId, cropId });
    },

    async verifyCropCover(scope, blobName) {
      const pending = await store.repos.uploads.byBlobNameForUpdate(scope.project.id, blobName);
      if (!pending || pending.kind !== 'crop-cover') throw uploadError('unknown-blob-name', `No crop cover upload was signed for ${blobName}`, blobName);
      matchesPending(pending, pending, clock.now());
      await objects.verifyObject(scope.project.id, pending);
      await objects.verifyCoverImage(scope.project.id, pending);
      return pending;
    },

    deleteObject: (projectId, blobName) =>
      objectStore.delete(blobKey(projectId, blobName)).catch(logFailedDelete(blobName, 'crop thumbnail not deleted now; the deletion queue retries it')),
  };
}
