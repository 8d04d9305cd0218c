// The three-step upload of files (CONTRACT §7, docs/files.md): sign (a pending row and a
// signed PUT URL per file) → the client PUTs to the store → register (what the store holds
// is checked against what was signed, then the files are created, all or nothing).
import { projectEventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { invalidInput, notFound } from '../../../core/errors.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import type { FileRecord, PendingUploadRecord, FilesRepos } from '../../../core/ports/file-repositories.ts';
import { noMetrics, type CoreMetrics } from '../../../core/ports/telemetry.ts';
import { requirePermission, type Actor } from '../../../core/permissions/authorizer.ts';
import type { ProjectAccess, ProjectScope } from '../../projects/index.ts';
import { WRITE } from './file-permissions.ts';
import { countByCategory, type CheckCapacities } from './capacities.ts';
import type { UploadedObjects } from './uploaded-objects.ts';
import {
  FILES, checkItem, matchesPending, newFileRecord, pendingUploadRecord, uploadError, uploadItemOf,
  type CheckedItem, type RegisteredFile, type SignResult, type UploadItem,
} from './upload-items.ts';
import type { WorkzoneRecord, WorkzonesRepos } from '../../workzones/index.ts';
import type { AccountsRepos } from '../../accounts/index.ts';

/** The settings of an upload, signed here or in parts (the uploads module): the sandbox's limits, the pending upload's and its URLs' lifetimes, the storage quota. */
export interface UploadSettings { sandbox: boolean; uploadTtlSeconds: number; uploadUrlTtlSeconds: number; storageQuotaBytes: number }

/** What signing and registering read of the store, and what the registration's transaction writes. */
export const UPLOADS_STORE = storeUseOf<Repos & FilesRepos & AccountsRepos & WorkzonesRepos>()({ reads: ['files', 'uploads', 'workzones'], writes: ['events', 'files', 'subscriptions', 'uploads', 'users'] });
/** The repositories the registration's transaction uses. */
export type RegistrationRepos = Pick<Repos & FilesRepos & AccountsRepos, (typeof UPLOADS_STORE.writes)[number]>;

/**
 * Another module's write in the registration's transaction (a connect import links the files
 * to its job): the transaction is its store's, which hands the registration's repositories
 * and its own, so that each side is handed what it declared.
 */
export interface WithinRegistration<R extends RegistrationRepos> {
  store: { transaction<T>(fn: (repos: R) => Promise<T>): Promise<T> };
  run(repos: R, registered: RegisteredFile[]): Promise<void>;
}

export interface Uploads {
  /** POST …/workzones/{w}/bulk-files: a pending upload per file, its signed URL. */
  signBulkFiles(actor: Actor, a: EntityRef, p: EntityRef, w: EntityRef, items: UploadItem[]): Promise<SignResult>;
  /**
   * PUT/POST …/workzones/{w}/bulk-files with blob names: every object must be in the
   * store with the signed size and MD5; then all files are created in one transaction
   * (all or nothing). A blob registered before answers its file again (idempotent). An
   * item without blobName is matched to the newest live upload signed in that zone with
   * the same name, extension, size and MD5.
   */
  registerBulkFiles<R extends RegistrationRepos = RegistrationRepos>(
    actor: Actor, a: EntityRef, p: EntityRef, w: EntityRef, items: (UploadItem & { blobName?: string })[],
    /** Runs in the registration's transaction (connect imports link the files to their job). */
    within?: WithinRegistration<R>,
  ): Promise<RegisteredFile[]>;
}

/** What the use cases that sign uploads (files here, covers in covers.ts) need besides their store. */
export interface SigningDeps {
  clock: Clock;
  ids: Ids;
  access: Pick<ProjectAccess, 'project'>;
  objects: UploadedObjects;
  checkCapacities: CheckCapacities;
  /** How long a pending row lives: at least its URL's lifetime. */
  pendingTtlSeconds: number;
}

export function createUploads(deps: SigningDeps & { store: SliceOf<typeof UPLOADS_STORE, Repos & FilesRepos & AccountsRepos & WorkzonesRepos>; metrics?: CoreMetrics }): Uploads {
  const { clock, ids, access, objects, checkCapacities } = deps;
  const store = sliceOf(deps.store, UPLOADS_STORE);
  const metrics = deps.metrics ?? noMetrics;

  async function zoneIn(scope: ProjectScope, ref: EntityRef): Promise<WorkzoneRecord> {
    const w = await store.repos.workzones.byRef(scope.project.id, ref);
    if (!w) throw notFound('workzone', refValue(ref));
    return w;
  }

  async function openZone(actor: Actor, a: EntityRef, p: EntityRef, w: EntityRef, count: number) {
    const scope = await access.project(actor, a, p);
    const zone = await zoneIn(scope, w);
    if (!count || count > FILES.maxItems) throw invalidInput(`Between 1 and ${FILES.maxItems} files`);
    return { scope, zone };
  }

  return {
    async signBulkFiles(actor, a, p, w, items) {
      const { scope, zone } = await openZone(actor, a, p, w, items.length);
      const checked = items.map(checkItem);
      const categories = new Set(checked.map((c) => c.category));
      for (const c of categories) requirePermission(scope.workzone(zone.id), WRITE[c], 'create-file-forbidden');
      const now = clock.now();
      const signed: (CheckedItem & { blobName: string; url: string })[] = [];
      for (const c of checked) signed.push({ ...c, ...(await objects.signUpload(scope.project.id, c, now)) });
      const adding = countByCategory(checked, (c) => c.category);
      await store.transaction(async (repos) => {
        const bytes = checked.reduce((n, c) => n + c.size, 0);
        await checkCapacities(repos, { subscriptionId: scope.project.subscriptionId, userId: actor.userId, adding, touched: categories, addingBytes: bytes });
        for (const s of signed) {
          await repos.uploads.insert(pendingUploadRecord(
            ids.uuid(), s, { projectId: scope.project.id, workzoneId: zone.id, cropId: null, kind: 'file', category: s.category },
            actor.userId, now, deps.pendingTtlSeconds,
          ));
        }
      });
      return {
        provider: objects.provider,
        expiresIn: objects.urlTtlSeconds,
        files: signed.map((s) => ({ ...uploadItemOf(s), url: s.url, blobName: s.blobName })),
      };
    },

    async registerBulkFiles(actor, a, p, w, items, within) {
      const { scope, zone } = await openZone(actor, a, p, w, items.length);
      const projectId = scope.project.id;
      const now = clock.now();
      const checked = items.map((i, n) => ({ ...checkItem(i, n), blobName: i.blobName }));
      let live: PendingUploadRecord[] | null = null;
      const taken = new Set(checked.map((c) => c.blobName).filter((b): b is string => !!b));
      for (const c of checked) {
        if (c.blobName) continue;
        live ??= await store.repos.uploads.listLive(projectId, 'file', now);
        const found = live.find(
          (u) => !taken.has(u.blobName) && u.workzoneId === zone.id && u.name === c.name && u.extension === c.extension &&
            u.size === c.size && u.md5 === c.md5,
        );
        if (!found) throw uploadError('unknown-blob-name', `No signed upload matches ${c.name}`, '');
        taken.add(found.blobName);
        c.blobName = found.blobName;
      }
      const named = checked as (CheckedItem & { blobName: string })[];
      for (const c of new Set(named.map((n) => n.category))) requirePermission(scope.workzone(zone.id), WRITE[c], 'create-file-forbidden');

      // The store is asked before the transaction (no I/O to the store while rows are locked).
      for (const c of named) {
        if (await store.repos.files.byBlobName(projectId, c.blobName)) continue;
        const pending = await store.repos.uploads.byBlobNameForUpdate(projectId, c.blobName);
        // Registered by a concurrent call between the two reads: answered as registered below.
        if (!pending && (await store.repos.files.byBlobName(projectId, c.blobName))) continue;
        if (!pending || pending.kind !== 'file') throw uploadError('unknown-blob-name', `No upload was signed for ${c.blobName}`, c.blobName);
        if (pending.workzoneId !== zone.id) throw uploadError('invalid-input', `${c.blobName} was signed for another work zone`, c.blobName);
        matchesPending(pending, c, now);
        await objects.verifyObject(projectId, pending);
      }

      // Bytes of the files this call created, counted once the transaction committed.
      let addedBytes = 0;
      const write = async (repos: RegistrationRepos): Promise<RegisteredFile[]> => {
        addedBytes = 0;
        const touched = new Set(named.map((c) => c.category));
        await checkCapacities(repos, { subscriptionId: scope.project.subscriptionId, userId: actor.userId, adding: new Map(), touched, addingBytes: 0 });
        const out: RegisteredFile[] = [];
        const done = new Map<string, FileRecord>();
        for (const c of named) {
          let file = done.get(c.blobName) ?? (await repos.files.byBlobName(projectId, c.blobName));
          if (!file) {
            const pending = await repos.uploads.byBlobNameForUpdate(projectId, c.blobName);
            // Registered by a concurrent call that committed while we waited for the row.
            file = pending ? null : await repos.files.byBlobName(projectId, c.blobName);
            if (!file) {
              if (!pending || pending.kind !== 'file' || pending.workzoneId !== zone.id) {
                throw uploadError('unknown-blob-name', `No upload was signed for ${c.blobName}`, c.blobName);
              }
              matchesPending(pending, c, now);
              file = newFileRecord(ids.uuid(), projectId, zone.id, c, pending, actor.userId, now);
              await repos.files.insert(file);
              await repos.uploads.remove(pending.id);
              await repos.events.publish(projectEventOf('file.registered', scope.project, subjectOf('file', file.id), {
                fileId: file.id, workzoneId: zone.id, category: file.category,
              }), now);
              addedBytes += file.size;
            }
          }
          done.set(c.blobName, file);
          out.push({ ...uploadItemOf(file), id: file.id, blobName: file.blobName });
        }
        return out;
      };
      const registered = within
        ? await within.store.transaction(async (repos) => {
          const out = await write(repos);
          await within.run(repos, out);
          return out;
        })
        : await store.transaction(write);
      metrics.uploadedBytes(addedBytes);
      return registered;
    },
  };
}
