// Multipart uploads, the API 2 extension of docs/files.md "Multipart uploads" (issue 30):
// start (the plan, the store's upload, the reservation), part URLs signed on demand, the
// parts the store holds (resume), completion (every check, then the file registered as the
// single-URL flow registers it), abort. Bytes never pass through the service's API: the
// store receives the parts and checks each against its signed size and MD5.
//
// The reservation is a pending upload of the files module with this upload's id (kind
// 'file', md5 '' until completion): the category's capacity and the storage quota count
// it from the start, for the whole size, under the subscription's row lock, and it is
// released when the upload completes, is aborted, or expires (the sweeper, sweeper.ts).
// Only the user who started an upload may use it: to anyone else it does not exist.
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import { projectEventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { DomainError, invalidInput, notFound } from '../../../core/errors.ts';
import {
  checkItem, FILE_WRITE, newFileRecord, pendingUploadRecord, uploadItemOf, type CheckCapacities, type RegisteredFile,
} from '../../files/index.ts';
import { type EntityRef, isUuid, refValue } from '../../../core/ids/urn.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import { MD5_HEX, partCountOf, planPartSize } from '../../../core/ports/multipart-plan.ts';
import { blobKey, type MultipartUpload, type ObjectStore, type StoredPart } from '../../../core/ports/object-store.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { FilesRepos } from '../../../core/ports/file-repositories.ts';
import type { CoreMetrics } from '../../../core/ports/telemetry.ts';
import { requirePermission, type Actor } from '../../../core/permissions/authorizer.ts';
import type { ProjectAccess, ProjectScope } from '../../projects/index.ts';
import type { MultipartUploadRecord, MultipartUploadsRepo } from './records.ts';
import { ANY_FILE_WRITE, MULTIPART } from './rules.ts';
import type { WorkzonesRepos } from '../../workzones/index.ts';
import type { AccountsRepos } from '../../accounts/index.ts';

export interface StartInput {
  name: string;
  extension: string;
  size: number;
  /** A part size wished for, in bytes (the service decides: docs/storage.md). */
  partSize?: number;
}

export interface MultipartView {
  id: string;
  blobName: string;
  name: string;
  extension: string;
  size: number;
  partSize: number;
  partCount: number;
  provider: string;
  expiresAt: Date;
}

export interface PartUrls {
  expiresIn: number;
  parts: { partNumber: number; size: number; url: string; headers: Record<string, string> }[];
}

export interface HeldParts {
  parts: { partNumber: number; size: number; md5: string | null }[];
  /** The `after` of the next page, or null. */
  next: number | null;
}

/** Which upload a call names: the path's account, project, work zone and upload id. */
export interface UploadPath {
  account: EntityRef;
  project: EntityRef;
  workzone: EntityRef;
  id: string;
}

export type ZonePath = Omit<UploadPath, 'id'>;

export interface MultipartUploads {
  /**
   * Before the body of a start is read: the zone exists and the caller may upload files of
   * some category there (403 `create-file-forbidden` otherwise). The category, from the
   * body's extension, is checked again by `start`.
   */
  mayStart(actor: Actor, at: ZonePath): Promise<void>;
  /** Before the body of any other call is read: the upload is the caller's and he may still write its category. */
  mayUse(actor: Actor, at: UploadPath): Promise<void>;
  /** POST …/multipart-uploads: the plan, the store's upload and the reservation of the whole size. */
  start(actor: Actor, at: ZonePath, input: StartInput): Promise<MultipartView>;
  /** POST …/{id}/part-urls: signed PUT URLs of 1–1000 parts, each bound to its number, size and MD5. */
  signParts(actor: Actor, at: UploadPath, parts: { partNumber: number; md5: string }[]): Promise<PartUrls>;
  /** GET …/{id}/parts: the parts the store holds after part `after`, at most `limit`. */
  listParts(actor: Actor, at: UploadPath, page: { after?: number; limit?: number }): Promise<HeldParts>;
  /** POST …/{id}/complete: every part checked, the whole file verified, then the file registered. */
  complete(actor: Actor, at: UploadPath, input: { md5?: string; partsMd5: string }): Promise<RegisteredFile>;
  /** DELETE …/{id}: the store's parts removed, the reservation released. */
  abort(actor: Actor, at: UploadPath): Promise<void>;
}

const uploadNotFound = () => new DomainError('not-found', 'upload-not-found', 'No such multipart upload');
const alreadyCompleted = (r: MultipartUploadRecord) =>
  // The message names the file too: API 1's {code, message} carries no errorValues.
  new DomainError('conflict', 'upload-already-completed', `This upload was completed already: file ${r.fileId}, blob ${r.blobName}`, { fileId: r.fileId!, blobName: r.blobName });
const expired = (r: MultipartUploadRecord) =>
  new DomainError('invalid', 'upload-expired', `The upload of ${r.blobName} has expired`, { blobName: r.blobName });

export const storeUploadOf = (r: MultipartUploadRecord): MultipartUpload => ({
  key: blobKey(r.projectId, r.blobName), uploadId: r.storeUploadId, size: r.size, partSize: r.partSize,
});

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const MULTIPART_UPLOADS_STORE = storeUseOf<Repos & FilesRepos & AccountsRepos & WorkzonesRepos & { multipartUploads: MultipartUploadsRepo }>()({ reads: ['multipartUploads', 'workzones'], writes: ['events', 'files', 'multipartUploads', 'subscriptions', 'uploads', 'users'] });

export function createMultipartUploads(deps: {
  store: SliceOf<typeof MULTIPART_UPLOADS_STORE, Repos & FilesRepos & AccountsRepos & WorkzonesRepos & { multipartUploads: MultipartUploadsRepo }>;
  clock: Clock;
  ids: Ids;
  access: Pick<ProjectAccess, 'project'>;
  objectStore: ObjectStore;
  checkCapacities: CheckCapacities;
  /** How long an upload may take before the sweeper aborts it: max(UPLOAD_TTL, UPLOAD_URL_TTL). */
  uploadTtlSeconds: number;
  /** How long a part URL lives (UPLOAD_URL_TTL). */
  urlTtlSeconds: number;
  metrics?: CoreMetrics;
}): MultipartUploads {
  const { clock, ids, access, objectStore, checkCapacities } = deps;
  const store = sliceOf(deps.store, MULTIPART_UPLOADS_STORE);

  async function openZone(actor: Actor, at: ZonePath) {
    const scope = await access.project(actor, at.account, at.project);
    const zone = await store.repos.workzones.byRef(scope.project.id, at.workzone);
    if (!zone) throw notFound('workzone', refValue(at.workzone));
    return { scope, zoneId: zone.id };
  }

  /** The caller's own upload in this zone, with his write permission of its category checked. */
  async function openUpload(actor: Actor, at: UploadPath): Promise<{ scope: ProjectScope; upload: MultipartUploadRecord }> {
    const { scope, zoneId } = await openZone(actor, at);
    const upload = isUuid(at.id) ? await store.repos.multipartUploads.byId(scope.project.id, at.id.toLowerCase()) : null;
    if (!upload || upload.workzoneId !== zoneId || upload.userId !== actor.userId) throw uploadNotFound();
    requirePermission(scope.workzone(zoneId), FILE_WRITE[upload.category as keyof typeof FILE_WRITE], 'create-file-forbidden');
    return { scope, upload };
  }

  const isExpired = (u: MultipartUploadRecord) => u.expiresAt.getTime() <= clock.now().getTime();

  function openForWriting(u: MultipartUploadRecord) {
    if (u.completedAt) throw alreadyCompleted(u);
    if (isExpired(u)) throw expired(u);
  }

  return {
    async mayStart(actor, at) {
      const { scope, zoneId } = await openZone(actor, at);
      requirePermission(scope.workzone(zoneId), ANY_FILE_WRITE, 'create-file-forbidden');
    },

    async mayUse(actor, at) {
      await openUpload(actor, at);
    },

    async start(actor, at, input) {
      const { scope, zoneId } = await openZone(actor, at);
      if (typeof input.name !== 'string' || typeof input.extension !== 'string') throw invalidInput('name and extension are required');
      if (!Number.isSafeInteger(input.size) || input.size < 1) throw invalidInput('size must be a positive integer', { field: 'size' });
      // The single-URL flow's item rules (name, extension, 5 TiB), with a placeholder digest: the MD5 comes at completion.
      const item = checkItem({ name: input.name, extension: input.extension, size: input.size, md5: '0'.repeat(32) }, 0);
      requirePermission(scope.workzone(zoneId), FILE_WRITE[item.category], 'create-file-forbidden');
      const partSize = planPartSize(item.size, objectStore.multipartLimits, input.partSize);
      const id = ids.uuid();
      const blobName = `${ids.uuid()}.${item.extension}`;
      const now = clock.now();
      // The store's upload first (no store I/O while the subscription is locked); taken back when the reservation fails.
      const created = await objectStore.createMultipart({
        key: blobKey(scope.project.id, blobName), size: item.size, partSize, contentType: MULTIPART.contentTypeOf(item.extension),
      });
      const pending = pendingUploadRecord(
        id, { ...uploadItemOf(item), md5: '', blobName }, { projectId: scope.project.id, workzoneId: zoneId, cropId: null, kind: 'file', category: item.category },
        actor.userId, now, deps.uploadTtlSeconds,
      );
      const record: MultipartUploadRecord = {
        id, projectId: scope.project.id, workzoneId: zoneId, blobName, category: item.category, name: item.name, extension: item.extension,
        size: item.size, partSize, storeUploadId: created.uploadId, userId: actor.userId, createdAt: now, expiresAt: pending.expiresAt,
        fileId: null, completedAt: null,
      };
      try {
        await store.transaction(async (repos) => {
          await checkCapacities(repos, {
            subscriptionId: scope.project.subscriptionId, userId: actor.userId, adding: new Map([[item.category, 1]]),
            touched: new Set([item.category]), addingBytes: item.size,
          });
          await repos.uploads.insert(pending);
          await repos.multipartUploads.insert(record);
        });
      } catch (e) {
        await objectStore.abortMultipart(created);
        throw e;
      }
      return {
        id, blobName, name: item.name, extension: item.extension, size: item.size, partSize, partCount: partCountOf(created),
        provider: objectStore.provider, expiresAt: record.expiresAt,
      };
    },

    async signParts(actor, at, parts) {
      const { upload } = await openUpload(actor, at);
      openForWriting(upload);
      if (!Array.isArray(parts) || parts.length < 1 || parts.length > MULTIPART.maxPartsPerCall) {
        throw invalidInput(`parts: 1 to ${MULTIPART.maxPartsPerCall} items`, { field: 'parts' });
      }
      const toSign = parts.map((p, n) => {
        if (typeof p?.md5 !== 'string' || !MD5_HEX.test(p.md5.toLowerCase())) {
          throw invalidInput('md5 must be the hex MD5 of the part (32 hex digits)', { field: `/parts/${n}/md5` });
        }
        return { partNumber: p.partNumber, md5Hex: p.md5.toLowerCase() };
      });
      const signed = await objectStore.signParts({ upload: storeUploadOf(upload), parts: toSign, expiresInSeconds: deps.urlTtlSeconds }, clock.now());
      return { expiresIn: deps.urlTtlSeconds, parts: signed.map((s) => ({ partNumber: s.partNumber, size: s.size, url: s.url, headers: s.headers })) };
    },

    async listParts(actor, at, page) {
      const { upload } = await openUpload(actor, at);
      if (upload.completedAt) throw alreadyCompleted(upload);
      const after = page.after ?? 0;
      const limit = page.limit ?? MULTIPART.maxPartsPerCall;
      if (!Number.isSafeInteger(after) || after < 0) throw invalidInput('after must be a part number (0 for the first page)', { field: 'after' });
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > MULTIPART.maxPartsPerCall) {
        throw invalidInput(`limit must be from 1 to ${MULTIPART.maxPartsPerCall}`, { field: 'limit' });
      }
      const held: StoredPart[] = (await objectStore.listParts(storeUploadOf(upload))).filter((p) => p.partNumber > after);
      held.sort((x, y) => x.partNumber - y.partNumber);
      const shown = held.slice(0, limit);
      return {
        parts: shown.map((p) => ({ partNumber: p.partNumber, size: p.size, md5: p.md5Hex })),
        next: held.length > limit ? shown.at(-1)!.partNumber : null,
      };
    },

    async complete(actor, at, input) {
      const { scope, upload } = await openUpload(actor, at);
      openForWriting(upload);
      // md5 may be left out where the store computes it from the bytes (local disk): each part was
      // verified against its own MD5 and the composite ties them to the client's file.
      const sent = input.md5 === undefined ? undefined : typeof input.md5 === 'string' ? input.md5.toLowerCase() : '';
      const partsMd5 = typeof input.partsMd5 === 'string' ? input.partsMd5.toLowerCase() : '';
      if (sent !== undefined && !MD5_HEX.test(sent)) throw invalidInput('md5 must be the hex MD5 of the whole file (32 hex digits)', { field: 'md5' });
      if (!MD5_HEX.test(partsMd5)) throw invalidInput('partsMd5 must be the hex MD5 of the parts\' binary MD5s (32 hex digits)', { field: 'partsMd5' });

      // The store checks and assembles outside any transaction (docs/files.md): nothing is registered when it refuses.
      let md5 = sent;
      try {
        const done = await objectStore.completeMultipart({ upload: storeUploadOf(upload), md5Hex: sent, partsMd5Hex: partsMd5 });
        md5 ??= done.md5Hex ?? undefined;
        if (done.md5Hex !== null && done.md5Hex !== md5) {
          throw new DomainError('invalid', 'multipart-checksum-mismatch', 'The assembled file does not have the MD5 sent', { md5: done.md5Hex });
        }
        if (done.partsMd5Hex !== null && done.partsMd5Hex !== partsMd5) {
          throw new DomainError('invalid', 'multipart-checksum-mismatch', 'The parts held do not give the composite checksum sent', { partsMd5: done.partsMd5Hex });
        }
      } catch (e) {
        // Assembled by an earlier call whose registration did not happen (a crash, a lost connection): registered now,
        // once the object is there with the planned size (and the MD5 sent, where the store knows it).
        if (!(e instanceof DomainError && e.code === 'upload-already-completed')) throw e;
        const again = await store.repos.multipartUploads.byId(upload.projectId, upload.id);
        if (again?.completedAt) throw alreadyCompleted(again);
        const info = await objectStore.stat(blobKey(upload.projectId, upload.blobName));
        if (!info || info.size !== upload.size || (info.md5Hex !== null && md5 !== undefined && info.md5Hex !== md5)) throw e;
        md5 ??= info.md5Hex ?? undefined;
      }
      // A store that neither was given the MD5 nor computed it refused above (requireWholeMd5); this is its guard.
      if (md5 === undefined) throw invalidInput('md5 (the whole file\'s MD5) is required on this store', { field: 'md5' });
      const wholeMd5 = md5;

      const now = clock.now();
      const file = await store.transaction(async (repos) => {
        const current = await repos.multipartUploads.byIdForUpdate(upload.projectId, upload.id);
        if (!current) throw uploadNotFound();
        if (current.completedAt) throw alreadyCompleted(current);
        // The reservation: gone once expired and swept.
        const pending = await repos.uploads.byBlobNameForUpdate(upload.projectId, upload.blobName);
        if (!pending || pending.id !== upload.id || pending.expiresAt.getTime() <= now.getTime()) throw expired(current);
        await checkCapacities(repos, {
          subscriptionId: scope.project.subscriptionId, userId: actor.userId, adding: new Map(), touched: new Set([upload.category as never]), addingBytes: 0,
        });
        const item = checkItem({ name: upload.name, extension: upload.extension, size: upload.size, md5: wholeMd5 }, 0);
        const f = newFileRecord(ids.uuid(), upload.projectId, upload.workzoneId, { ...item, blobName: upload.blobName }, { ...pending, md5: wholeMd5 }, actor.userId, now);
        await repos.files.insert(f);
        await repos.uploads.remove(pending.id);
        await repos.multipartUploads.markCompleted(upload.id, f.id, now);
        await repos.events.publish(projectEventOf('file.registered', scope.project, subjectOf('file', f.id), {
          fileId: f.id, workzoneId: f.workzoneId, category: f.category,
        }), now);
        return f;
      });
      deps.metrics?.uploadedBytes(file.size);
      return { ...uploadItemOf(file), id: file.id, blobName: file.blobName };
    },

    async abort(actor, at) {
      const { upload } = await openUpload(actor, at);
      if (upload.completedAt) throw alreadyCompleted(upload);
      // The parts first: a crash after this leaves rows the sweeper aborts again (not an error), never parts no row names.
      await objectStore.abortMultipart(storeUploadOf(upload));
      await store.transaction(async (repos) => {
        const current = await repos.multipartUploads.byIdForUpdate(upload.projectId, upload.id);
        if (!current) return;
        if (current.completedAt) throw alreadyCompleted(current);
        await repos.uploads.remove(upload.id);
        await repos.multipartUploads.remove(upload.id);
      });
    },
  };
}
