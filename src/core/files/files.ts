// Files (CONTRACT §7, docs/files.md): the three-step upload (sign → PUT to the store →
// register), listing, reading, renaming, deleting, moving and downloading through signed
// URLs; the project cover. Bytes never pass through here: the core signs, the store
// receives, registration checks what the store holds against what was signed.
import { DomainError, invalidInput, notFound } from '../errors.ts';
import { type EntityRef, refValue } from '../ids/urn.ts';
import { errorFields, noMetrics, silentLogger, type CoreMetrics, type Logger } from '../ports/telemetry.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ids } from '../ports/ids.ts';
import type { Repos, Store } from '../ports/repositories.ts';
import type { WorkzoneRecord } from '../ports/project-repositories.ts';
import type { FileRecord, PendingUploadRecord, Quaternion, Vector3 } from '../ports/file-repositories.ts';
import { blobKey, type ObjectStore } from '../ports/object-store.ts';
import type { Permission } from '../permissions/catalog.ts';
import { forbidden, type Actor } from '../permissions/authorizer.ts';
import { projectScopeKey, requireMember, type ProjectAccess, type ProjectScope } from '../projects/project-access.ts';
import { CATEGORIES, categoryOf, formatOf, isCategory, type Category, type Format } from './formats.ts';
import { READ, TRANSFORM, WRITE, mayDownload, requireAny } from './file-permissions.ts';
import { IMAGE_HEAD_BYTES, extensionOfBlob, isCoverImage, servedAs, type ServedAs } from './blob-types.ts';

export const FILES = {
  /** Download URLs live 3 hours (CONTRACT §7). */
  downloadTtlSeconds: 3 * 3600,
  /** Sandbox: scans per user across the deployment (spec "Limits"). */
  sandboxScansPerUser: 20,
  coverMaxBytes: 10 * 1024 * 1024,
  coverExtensions: ['png', 'jpg', 'jpeg'] as readonly string[],
  maxFileBytes: 5 * 1024 ** 4,
  maxItems: 1000,
};

export interface UploadItem {
  name: string;
  extension: string;
  size: number;
  md5: string;
}

export interface SignedFile extends UploadItem {
  url: string;
  blobName: string;
}

export interface SignResult {
  provider: string;
  expiresIn: number;
  files: SignedFile[];
}

export interface RegisteredFile extends UploadItem {
  id: string;
  blobName: string;
}

export interface FileView {
  file: FileRecord;
  accountId: string;
}

export interface TransformInput {
  ref: EntityRef;
  translation?: Vector3 | null;
  rotation?: Quaternion | null;
  scale?: Vector3 | null;
}

interface Checked extends UploadItem {
  format: Format;
  category: Category;
}


// Vendor FileName: 1–255 characters, none of <>:;,?"*|\/ (and no control characters).
// eslint-disable-next-line no-control-regex
const FILE_NAME_FORBIDDEN = /[<>:;,?"*|\\/\u0000-\u001f\u007f]/;

/** A file name as stored: trimmed, 1–255 characters, none of the vendor's excluded characters. */
export function fileName(raw: string, field = 'name'): string {
  const name = raw.trim();
  if (!name || name.length > 255) throw invalidInput(`${field} must be 1 to 255 characters`, { field });
  if (FILE_NAME_FORBIDDEN.test(name)) throw invalidInput(`${field} must not contain any of <>:;,?"*|\\/`, { field });
  return name;
}

function checkItem(i: UploadItem, index: number): Checked {
  const field = (f: string) => `/${index}/${f}`;
  const name = fileName(i.name, field('name'));
  const extension = i.extension.trim().replace(/^\./, '').toLowerCase();
  if (!/^[a-z0-9]{1,16}$/.test(extension)) throw invalidInput('extension must be 1 to 16 letters or digits', { field: field('extension') });
  if (!Number.isSafeInteger(i.size) || i.size < 0 || i.size > FILES.maxFileBytes) {
    throw invalidInput(`size must be an integer from 0 to ${FILES.maxFileBytes}`, { field: field('size') });
  }
  if (!/^[0-9a-fA-F]{32}$/.test(i.md5)) throw invalidInput('md5 must be the hex MD5 of the content (32 hex digits)', { field: field('md5') });
  const format = formatOf(extension);
  return { name, extension, size: i.size, md5: i.md5.toLowerCase(), format, category: format.category };
}

/** `?category=a,b` (case-sensitive; empty: nothing; an unknown name: 400). undefined: every category. */
/** The name a download is saved under: the file's name with its extension. */
export const downloadName = (f: { name: string; extension: string }) =>
  f.name.toLowerCase().endsWith(`.${f.extension}`) ? f.name : `${f.name}.${f.extension}`;

export function parseCategories(param: string | undefined, aliases: Record<string, Category> = {}): Category[] | undefined {
  if (param === undefined) return undefined;
  if (param.trim() === '') return [];
  const out = new Set<Category>();
  for (const raw of param.split(',')) {
    const c = raw.trim();
    const category = aliases[c] ?? (isCategory(c) ? c : undefined);
    if (!category) throw invalidInput(`Unknown category ${JSON.stringify(c.slice(0, 50))}: expected ${CATEGORIES.join(', ')}`, { category: c.slice(0, 50) });
    out.add(category);
  }
  return [...out];
}

/** The identity placement a placed file starts with. */
const IDENTITY = { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
const PLACED: ReadonlySet<Category> = new Set(['scan', 'geoImage', 'model', 'video3d', 'gaussian']);

const capacityError = (category: 'scan' | 'geoImage', values: Record<string, string>) =>
  new DomainError(
    'invalid',
    category === 'scan' ? 'capacity-exceeded-scan' : 'capacity-exceeded-geoimage',
    `The ${category === 'scan' ? 'scan' : 'geo image'} capacity is exceeded`,
    values,
  );

const quotaError = (subscriptionId: string, quotaBytes: number) =>
  new DomainError('invalid', 'storage-quota-exceeded', `The subscription's storage quota (${quotaBytes} bytes) is exceeded`, {
    subscriptionId, quotaBytes,
  });

const uploadError = (code: string, message: string, blobName: string) => new DomainError('invalid', code, message, { blobName });

export function createFiles(deps: {
  store: Store;
  clock: Clock;
  ids: Ids;
  access: ProjectAccess;
  objectStore: ObjectStore;
  uploadTtlSeconds: number;
  uploadUrlTtlSeconds: number;
  /** Bytes per subscription, every category (STORAGE_QUOTA_BYTES). */
  storageQuotaBytes: number;
  sandbox: boolean;
  metrics?: CoreMetrics;
  logger?: Logger;
}) {
  const { store, clock, ids, access, objectStore } = deps;
  const metrics = deps.metrics ?? noMetrics;
  const logger = deps.logger ?? silentLogger;
  const urlTtl = deps.uploadUrlTtlSeconds;
  // A pending row outlives its URL, so an upload finished at the URL's last second can still be registered.
  const pendingTtl = Math.max(deps.uploadTtlSeconds, urlTtl);

  const open = (actor: Actor, a: EntityRef, p: EntityRef) => access.project(actor, a, p);

  async function zoneIn(scope: ProjectScope, ref: EntityRef): Promise<WorkzoneRecord> {
    const w = await store.repos.workzones.byRef(scope.project.id, ref);
    if (!w) throw notFound('workzone', refValue(ref));
    return w;
  }

  async function fileIn(scope: ProjectScope, ref: EntityRef, repos: Repos = store.repos): Promise<FileRecord> {
    const f = await repos.files.byRef(scope.project.id, ref);
    if (!f) throw notFound('file', refValue(ref));
    return f;
  }

  const view = (scope: ProjectScope, file: FileRecord): FileView => ({ file, accountId: scope.account.account.id });
  const category = categoryOf;

  /**
   * Capacities (CONTRACT §7): registered files plus live pending uploads of the
   * subscription's projects, under a row lock on the subscription (so concurrent signers
   * and registrars on every node count one after the other). `adding`: uploads not yet
   * counted (signing); registering converts counted pending rows, so it adds none, yet
   * still refuses when the capacity was lowered meanwhile. The same lock covers the
   * storage quota (docs/security.md): the bytes of every registered file and live pending
   * upload of the subscription, whatever the category, plus `addingBytes`, at most
   * STORAGE_QUOTA_BYTES.
   */
  async function checkCapacities(
    repos: Repos, subscriptionId: string, userId: string, adding: Map<Category, number>, touched: Set<Category>, addingBytes: number,
  ) {
    const now = clock.now();
    await repos.files.lockSubscription(subscriptionId);
    if ((await repos.files.bytesInSubscription(subscriptionId, now)) + addingBytes > deps.storageQuotaBytes) {
      throw quotaError(subscriptionId, deps.storageQuotaBytes);
    }
    const relevant = (['scan', 'geoImage'] as const).filter((c) => touched.has(c));
    if (!relevant.length) return;
    const sub = await repos.subscriptions.byId(subscriptionId);
    if (!sub) throw notFound('subscription', subscriptionId);
    for (const c of relevant) {
      const capacity = c === 'scan' ? sub.scanCapacity : sub.geoImageCapacity;
      const n = await repos.files.countInSubscription(subscriptionId, c, now);
      if (n.registered + n.pending + (adding.get(c) ?? 0) > capacity) throw capacityError(c, { subscriptionId });
    }
    if (deps.sandbox && touched.has('scan')) {
      await repos.users.lock(userId);
      const n = await repos.files.countByUser(userId, 'scan', now);
      if (n.registered + n.pending + (adding.get('scan') ?? 0) > FILES.sandboxScansPerUser) {
        throw capacityError('scan', { userId });
      }
    }
  }

  async function signOne(projectId: string, c: { extension: string; size: number; md5: string }, now: Date) {
    const blobName = `${ids.uuid()}.${c.extension}`;
    const signed = await objectStore.signUpload(
      { key: blobKey(projectId, blobName), size: c.size, md5Hex: c.md5, contentType: servedAs(c.extension).contentType, expiresInSeconds: urlTtl },
      now,
    );
    return { blobName, url: signed.url };
  }

  /** What the store holds must be what was signed: the object exists, with that size and MD5. */
  async function verifyObject(projectId: string, pending: PendingUploadRecord): Promise<void> {
    const info = await objectStore.stat(blobKey(projectId, pending.blobName));
    if (!info) throw uploadError('blob-not-uploaded', `Nothing was uploaded for ${pending.blobName}`, pending.blobName);
    if (info.size !== pending.size) {
      throw uploadError('blob-mismatch', `The uploaded object has ${info.size} bytes, ${pending.size} were signed`, pending.blobName);
    }
    // Stores that do not know the MD5 checked the signed Content-MD5 when they received the bytes.
    if (info.md5Hex !== null && info.md5Hex.toLowerCase() !== pending.md5) {
      throw uploadError('blob-mismatch', 'The uploaded object does not have the signed MD5', pending.blobName);
    }
  }

  /**
   * A cover or crop thumbnail is served inline as an image: its stored bytes must start
   * with the signature of the image type its extension names (PNG; JPEG for jpg/jpeg),
   * read through the store. Otherwise 400 naming the file; nothing is recorded.
   */
  async function verifyCoverImage(projectId: string, pending: PendingUploadRecord): Promise<void> {
    const head = await objectStore.readHead(blobKey(projectId, pending.blobName), IMAGE_HEAD_BYTES);
    if (!head) throw uploadError('blob-not-uploaded', `Nothing was uploaded for ${pending.blobName}`, pending.blobName);
    if (!isCoverImage(pending.extension, head)) {
      const kind = pending.extension === 'png' ? 'PNG' : 'JPEG';
      throw new DomainError('invalid', 'cover-not-an-image', `${pending.name} (${pending.blobName}) is not a ${kind} image`, {
        blobName: pending.blobName, name: pending.name,
      });
    }
  }

  /**
   * Deletes a replaced project cover's object, only when no file or crop thumbnail names
   * that blob (a cover set before covers were checked may be another object's name). A
   * failed delete does not fail the committed registration: the row update queued the
   * blob (migration 0010), and the sweeper deletes it unless a row names it.
   */
  async function deleteReplacedCover(projectId: string, blobName: string): Promise<void> {
    if (await store.repos.files.byBlobName(projectId, blobName)) return;
    if (await store.repos.crops.byThumbnail(projectId, blobName)) return;
    await objectStore
      .delete(blobKey(projectId, blobName))
      .catch((e: unknown) => logger.warn({ ...errorFields(e), blobName }, 'replaced cover not deleted now; the deletion queue retries it'));
  }

  function matchesPending(p: PendingUploadRecord, c: Checked | UploadItem, now: Date): void {
    if (p.expiresAt.getTime() <= now.getTime()) throw uploadError('upload-expired', `The upload of ${p.blobName} has expired`, p.blobName);
    if (p.extension !== c.extension.replace(/^\./, '').toLowerCase() || p.size !== c.size || p.md5 !== c.md5.toLowerCase()) {
      throw uploadError('invalid-input', `extension, size and md5 must be those signed for ${p.blobName}`, p.blobName);
    }
  }

  /**
   * What a blob's download URL binds, after checking the caller may read what it belongs to:
   * its key and how it is served (type by extension, never the uploader's). A file's own
   * permission first, then a crop thumbnail's (workzone:crops:read), and only then the
   * project cover: a blob that is also some crop's thumbnail never passes as a cover.
   */
  async function resolveBlob(scope: ProjectScope, blobName: string): Promise<{ key: string } & ServedAs> {
    const key = blobKey(scope.project.id, blobName);
    const file = await store.repos.files.byBlobName(scope.project.id, blobName);
    if (file) {
      requireMember(scope);
      requireAny(scope.workzone(file.workzoneId), READ[category(file)], 'view-file-forbidden');
      return { key, ...servedAs(file.extension, downloadName(file)) };
    }
    const crop = await store.repos.crops.byThumbnail(scope.project.id, blobName);
    if (crop) {
      requireMember(scope);
      access.requireOnWorkzone(scope, crop.workzoneId, 'workzone:crops:read', 'view-crop-forbidden');
      return { key, ...servedAs(extensionOfBlob(blobName)) };
    }
    if (scope.project.coverBlobName === blobName) return { key, ...servedAs(extensionOfBlob(blobName)) };
    throw new DomainError('not-found', 'blob-not-found', `No blob ${blobName.slice(0, 200)} in this project`, { blobName: blobName.slice(0, 200) });
  }

  return {
    /** POST …/workzones/{w}/bulk-files: a pending upload per file, its signed URL. */
    async signBulkFiles(actor: Actor, a: EntityRef, p: EntityRef, w: EntityRef, items: UploadItem[]): Promise<SignResult> {
      const scope = await open(actor, a, p);
      const zone = await zoneIn(scope, w);
      if (!items.length || items.length > FILES.maxItems) throw invalidInput(`Between 1 and ${FILES.maxItems} files`);
      const checked = items.map(checkItem);
      const categories = new Set(checked.map((c) => c.category));
      for (const c of categories) requireAny(scope.workzone(zone.id), WRITE[c], 'create-file-forbidden');
      const now = clock.now();
      const signed: (Checked & { blobName: string; url: string })[] = [];
      for (const c of checked) signed.push({ ...c, ...(await signOne(scope.project.id, c, now)) });
      const adding = new Map<Category, number>();
      for (const c of checked) adding.set(c.category, (adding.get(c.category) ?? 0) + 1);
      await store.transaction(async (repos) => {
        const bytes = checked.reduce((n, c) => n + c.size, 0);
        await checkCapacities(repos, scope.project.subscriptionId, actor.userId, adding, categories, bytes);
        for (const s of signed) {
          await repos.uploads.insert({
            id: ids.uuid(), blobName: s.blobName, projectId: scope.project.id, workzoneId: zone.id, cropId: null, kind: 'file',
            category: s.category, name: s.name, extension: s.extension, size: s.size, md5: s.md5, userId: actor.userId,
            createdAt: now, expiresAt: new Date(now.getTime() + pendingTtl * 1000),
          });
        }
      });
      return {
        provider: objectStore.provider,
        expiresIn: urlTtl,
        files: signed.map((s) => ({ name: s.name, extension: s.extension, size: s.size, md5: s.md5, url: s.url, blobName: s.blobName })),
      };
    },

    /**
     * PUT/POST …/workzones/{w}/bulk-files with blob names: every object must be in the
     * store with the signed size and MD5; then all files are created in one transaction
     * (all or nothing). A blob registered before answers its file again (idempotent). An
     * item without blobName is matched to the newest live upload signed in that zone with
     * the same name, extension, size and MD5.
     */
    async registerBulkFiles(
      actor: Actor, a: EntityRef, p: EntityRef, w: EntityRef, items: (UploadItem & { blobName?: string })[],
      /** Runs in the registration's transaction (connect imports link the files to their job). */
      within?: (repos: Repos, registered: RegisteredFile[]) => Promise<void>,
    ): Promise<RegisteredFile[]> {
      const scope = await open(actor, a, p);
      const zone = await zoneIn(scope, w);
      if (!items.length || items.length > FILES.maxItems) throw invalidInput(`Between 1 and ${FILES.maxItems} files`);
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
      const named = checked as (Checked & { blobName: string })[];
      for (const c of new Set(named.map((n) => n.category))) requireAny(scope.workzone(zone.id), WRITE[c], 'create-file-forbidden');

      // The store is asked before the transaction (no I/O to the store while rows are locked).
      for (const c of named) {
        if (await store.repos.files.byBlobName(projectId, c.blobName)) continue;
        const pending = await store.repos.uploads.byBlobNameForUpdate(projectId, c.blobName);
        // Registered by a concurrent call between the two reads: answered as registered below.
        if (!pending && (await store.repos.files.byBlobName(projectId, c.blobName))) continue;
        if (!pending || pending.kind !== 'file') throw uploadError('unknown-blob-name', `No upload was signed for ${c.blobName}`, c.blobName);
        if (pending.workzoneId !== zone.id) throw uploadError('invalid-input', `${c.blobName} was signed for another work zone`, c.blobName);
        matchesPending(pending, c, now);
        await verifyObject(projectId, pending);
      }

      // Bytes of the files this call created, counted once the transaction committed.
      let addedBytes = 0;
      const registered = await store.transaction(async (repos) => {
        addedBytes = 0;
        const touched = new Set(named.map((c) => c.category));
        await checkCapacities(repos, scope.project.subscriptionId, actor.userId, new Map(), touched, 0);
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
              const placed = PLACED.has(c.category);
              file = {
                id: ids.uuid(), api1Id: '', projectId, workzoneId: zone.id, category: c.category, formatId: c.format.id, name: c.name,
                extension: pending.extension, size: pending.size, md5: pending.md5, blobName: c.blobName,
                translation: placed ? IDENTITY.translation : null, rotation: placed ? IDENTITY.rotation : null,
                scale: c.category === 'video3d' || c.category === 'gaussian' ? { x: 1, y: 1, z: 1 } : null,
                createdAt: now, createdBy: actor.userId, updatedAt: null, updatedBy: null, importedAt: now,
              };
              await repos.files.insert(file);
              await repos.uploads.remove(pending.id);
              addedBytes += file.size;
            }
          }
          done.set(c.blobName, file);
          out.push({ name: file.name, extension: file.extension, size: file.size, md5: file.md5, id: file.id, blobName: file.blobName });
        }
        if (within) await within(repos, out);
        return out;
      });
      metrics.uploadedBytes(addedBytes);
      return registered;
    },

    /** GET …/files?category=: the files of the zones the caller may read (vendor getFiles). */
    async listFiles(actor: Actor, a: EntityRef, p: EntityRef, categories: Category[] | undefined): Promise<FileView[]> {
      const scope = await open(actor, a, p);
      requireMember(scope);
      if (categories && !categories.length) return [];
      const files = await store.repos.files.list(scope.project.id, categories);
      return files.filter((f) => scope.workzone(f.workzoneId).has('workzone:workzones:read')).map((f) => view(scope, f));
    },

    async getFile(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef): Promise<FileView> {
      const scope = await open(actor, a, p);
      requireMember(scope);
      const f = await fileIn(scope, ref);
      access.requireOnWorkzone(scope, f.workzoneId, 'workzone:workzones:read', 'view-file-forbidden');
      return view(scope, f);
    },

    /** PATCH …/files/{f}: rename (vendor updateFileName: the category's write permission). */
    async renameFile(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef, name: string): Promise<FileView> {
      const scope = await open(actor, a, p);
      const f = await fileIn(scope, ref);
      requireAny(scope.workzone(f.workzoneId), WRITE[category(f)], 'update-file-forbidden');
      await store.repos.files.rename(f.id, fileName(name), actor.userId, clock.now());
      return view(scope, await fileIn(scope, ref));
    },

    /** DELETE …/files/{f}: the row first (committed), then the object; never a row without its object. */
    async deleteFile(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef): Promise<void> {
      const scope = await open(actor, a, p);
      const f = await fileIn(scope, ref);
      requireAny(scope.workzone(f.workzoneId), WRITE[category(f)], 'delete-file-forbidden');
      await store.repos.files.remove(f.id);
      await objectStore.delete(blobKey(scope.project.id, f.blobName));
    },

    /** POST …/files/bulk-transformation: all or nothing. */
    async transformFiles(actor: Actor, a: EntityRef, p: EntityRef, input: TransformInput[]): Promise<FileView[]> {
      const scope = await open(actor, a, p);
      if (!input.length || input.length > FILES.maxItems) throw invalidInput(`Between 1 and ${FILES.maxItems} files`);
      const now = clock.now();
      return store.transaction(async (repos) => {
        const out: FileView[] = [];
        for (const [i, t] of input.entries()) {
          const f = await fileIn(scope, t.ref, repos);
          const rule = TRANSFORM[category(f)];
          if (!rule) throw invalidInput(`Files of category ${f.category} cannot be transformed`, { field: `/${i}/id` });
          requireAny(scope.workzone(f.workzoneId), rule.alternatives, 'update-file-forbidden');
          if (t.scale && !rule.scale) throw invalidInput(`Files of category ${f.category} cannot be scaled`, { field: `/${i}/scale` });
          if (t.rotation) {
            const q = t.rotation;
            const norm = Math.hypot(q.x, q.y, q.z, q.w);
            if (Math.abs(norm - 1) > 1e-3) throw invalidInput('rotation must be a unit quaternion', { field: `/${i}/rotation` });
          }
          const placed = PLACED.has(category(f));
          const pick = <T>(given: T | null | undefined, current: T | null, reset: T | null): T | null =>
            given === undefined ? current : given === null ? reset : given;
          await repos.files.setTransformation(f.id, {
            translation: pick(t.translation, f.translation, placed ? IDENTITY.translation : null),
            rotation: pick(t.rotation, f.rotation, placed ? IDENTITY.rotation : null),
            scale: pick(t.scale, f.scale, rule.scale ? { x: 1, y: 1, z: 1 } : null),
          }, actor.userId, now);
          out.push(view(scope, await fileIn(scope, { type: 'file', uuid: f.id }, repos)));
        }
        return out;
      });
    },

    /** GET …/blobs/{blobName}: a 3-hour download URL (the route answers 302 to it). */
    async blobUrl(actor: Actor, a: EntityRef, p: EntityRef, blobName: string): Promise<string> {
      const scope = await open(actor, a, p);
      const b = await resolveBlob(scope, blobName);
      return objectStore.signDownload({ ...b, expiresInSeconds: FILES.downloadTtlSeconds }, clock.now());
    },

    /** POST …/blobs: download URLs for many blobs (all or nothing). */
    async blobUrls(actor: Actor, a: EntityRef, p: EntityRef, blobNames: string[]): Promise<{ expiresIn: number; urls: Record<string, string> }> {
      const scope = await open(actor, a, p);
      if (blobNames.length > FILES.maxItems) throw invalidInput(`At most ${FILES.maxItems} blobs`);
      const now = clock.now();
      const urls: Record<string, string> = {};
      for (const name of new Set(blobNames)) {
        const b = await resolveBlob(scope, name);
        urls[name] = await objectStore.signDownload({ ...b, expiresInSeconds: FILES.downloadTtlSeconds }, now);
      }
      return { expiresIn: FILES.downloadTtlSeconds, urls };
    },

    /** POST …/projects/{p}/cover (vendor signProjectCoverURL: project:project:update-details). */
    async signProjectCover(actor: Actor, a: EntityRef, p: EntityRef, item: UploadItem) {
      const scope = await open(actor, a, p);
      if (!scope.permissions.has('project:project:update-details')) throw forbidden('update-project-forbidden', ['project:project:update-details']);
      const c = checkCover(item);
      const now = clock.now();
      const s = await signOne(scope.project.id, c, now);
      await store.transaction(async (repos) => {
        await checkCapacities(repos, scope.project.subscriptionId, actor.userId, new Map(), new Set(), c.size);
        await repos.uploads.insert({
          id: ids.uuid(), blobName: s.blobName, projectId: scope.project.id, workzoneId: null, cropId: null, kind: 'project-cover',
          category: null, name: c.name, extension: c.extension, size: c.size, md5: c.md5, userId: actor.userId, createdAt: now,
          expiresAt: new Date(now.getTime() + pendingTtl * 1000),
        });
      });
      return { provider: objectStore.provider, expiresIn: urlTtl, file: { ...pick(c), url: s.url, blobName: s.blobName } };
    },

    /** PUT …/projects/{p}/cover: the uploaded cover becomes the project's (matched by blobName, else by name, size and MD5). */
    async registerProjectCover(actor: Actor, a: EntityRef, p: EntityRef, item: UploadItem & { blobName?: string }): Promise<RegisteredFile> {
      const scope = await open(actor, a, p);
      if (!scope.permissions.has('project:project:update-details')) throw forbidden('update-project-forbidden', ['project:project:update-details']);
      const c = checkCover(item);
      const now = clock.now();
      const live = await store.repos.uploads.listLive(scope.project.id, 'project-cover', now);
      const pending = live.find((u) =>
        item.blobName ? u.blobName === item.blobName : u.extension === c.extension && u.size === c.size && u.md5 === c.md5 && u.name === c.name,
      );
      if (!pending) throw uploadError('unknown-blob-name', 'No cover upload was signed with these values', item.blobName ?? '');
      matchesPending(pending, c, now);
      await verifyObject(scope.project.id, pending);
      await verifyCoverImage(scope.project.id, pending);
      const previous = await store.transaction(async (repos) => {
        const locked = await repos.uploads.byBlobNameForUpdate(scope.project.id, pending.blobName);
        if (!locked) throw uploadError('unknown-blob-name', 'The cover upload was registered or swept meanwhile', pending.blobName);
        const project = await repos.projects.byRef(scope.project.accountId, { uuid: scope.project.id });
        if (!project) throw notFound('project', scope.project.id);
        await repos.projects.update(project.id, { ...project, coverBlobName: pending.blobName }, actor.userId, now);
        await repos.uploads.remove(locked.id);
        await repos.changes.publish(projectScopeKey(project.id));
        return project.coverBlobName;
      });
      if (previous && previous !== pending.blobName) await deleteReplacedCover(scope.project.id, previous);
      return { ...pick(c), id: pending.id, blobName: pending.blobName };
    },

    /** Signs a crop's cover (used by the crops module, which checks its permission). */
    async signCropCover(scope: ProjectScope, cropId: string, workzoneId: string, actor: Actor, item: UploadItem) {
      const c = checkCover(item);
      const now = clock.now();
      const s = await signOne(scope.project.id, c, now);
      await store.transaction(async (repos) => {
        await checkCapacities(repos, scope.project.subscriptionId, actor.userId, new Map(), new Set(), c.size);
        await repos.uploads.insert({
          id: ids.uuid(), blobName: s.blobName, projectId: scope.project.id, workzoneId, cropId, kind: 'crop-cover', category: null,
          name: c.name, extension: c.extension, size: c.size, md5: c.md5, userId: actor.userId, createdAt: now,
          expiresAt: new Date(now.getTime() + pendingTtl * 1000),
        });
      });
      return { provider: objectStore.provider, expiresIn: urlTtl, file: { ...pick(c), url: s.url, blobName: s.blobName } };
    },

    /** A crop cover named in a crop write: a live crop-cover upload of the project, present in the store. */
    async verifyCropCover(scope: ProjectScope, blobName: string): Promise<PendingUploadRecord> {
      const pending = await store.repos.uploads.byBlobNameForUpdate(scope.project.id, blobName);
      if (!pending || pending.kind !== 'crop-cover') throw uploadError('unknown-blob-name', `No crop cover upload was signed for ${blobName}`, blobName);
      matchesPending(pending, pending, clock.now());
      await verifyObject(scope.project.id, pending);
      await verifyCoverImage(scope.project.id, pending);
      return pending;
    },

    deleteObject: (projectId: string, blobName: string) => objectStore.delete(blobKey(projectId, blobName)).catch(() => {}),

    /**
     * Work-zone copy (src/core/workzones/copy.ts): copies the files of the copied zones, each
     * under a new blob name, in the copy's transaction: the object is copied before its row
     * is written (never a row without its object); the destination subscription's capacities
     * apply (the job fails with capacity-exceeded-*). Objects copied before a failure are
     * deleted again.
     */
    async copyFiles(
      repos: Repos,
      a: {
        accountId: string; sourceProjectId: string; destinationProjectId: string; zones: Map<string, string>; userId: string; now: Date;
        /** The caller's permissions on a source zone: only the files he may download there are copied. */
        sourcePermissions: (workzoneId: string) => ReadonlySet<Permission>;
      },
    ): Promise<number> {
      const files = (await repos.files.list(a.sourceProjectId)).filter(
        (f) => a.zones.has(f.workzoneId) && mayDownload(a.sourcePermissions(f.workzoneId), f),
      );
      if (!files.length) return 0;
      const dest = await repos.projects.byRef(a.accountId, { uuid: a.destinationProjectId });
      if (!dest) throw notFound('project', a.destinationProjectId);
      const adding = new Map<Category, number>();
      for (const f of files) adding.set(category(f), (adding.get(category(f)) ?? 0) + 1);
      // The objects are copied before the capacity check takes the subscription's lock, so
      // signers and registrars of the subscription do not wait for the copying; a refusal
      // deletes the copies again. The copies are the caller's (createdBy): in the sandbox
      // the 20 scans per user apply.
      const copies: { file: FileRecord; blobName: string }[] = [];
      try {
        for (const f of files) {
          const blobName = `${ids.uuid()}.${f.extension}`;
          await objectStore.copy(blobKey(a.sourceProjectId, f.blobName), blobKey(a.destinationProjectId, blobName));
          copies.push({ file: f, blobName });
        }
        const bytes = files.reduce((n, f) => n + f.size, 0);
        await checkCapacities(repos, dest.subscriptionId, a.userId, adding, new Set(adding.keys()), bytes);
        for (const { file: f, blobName } of copies) {
          await repos.files.insert({
            ...f, id: ids.uuid(), projectId: a.destinationProjectId, workzoneId: a.zones.get(f.workzoneId)!, blobName,
            createdAt: a.now, createdBy: a.userId,
          });
        }
      } catch (e) {
        for (const c of copies) await objectStore.delete(blobKey(a.destinationProjectId, c.blobName)).catch(() => {});
        throw e;
      }
      return files.length;
    },
  };
}

const pick = (c: UploadItem) => ({ name: c.name, extension: c.extension, size: c.size, md5: c.md5 });

function checkCover(item: UploadItem): Checked {
  const c = checkItem(item, 0);
  if (!FILES.coverExtensions.includes(c.extension)) throw invalidInput('A cover is a png, jpg or jpeg file', { field: 'extension' });
  if (c.size < 1 || c.size > FILES.coverMaxBytes) throw invalidInput(`A cover has 1 to ${FILES.coverMaxBytes} bytes`, { field: 'size' });
  return c;
}

export type Files = ReturnType<typeof createFiles>;
