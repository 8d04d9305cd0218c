// Pure rules of files and uploads (CONTRACT §7, docs/files.md): the limits, what an upload
// item and a file name must be, how a registration must match what was signed, and the
// placement a new file starts with. No I/O: the use cases beside this file call these.
import type { CodeWithStatus } from '../../../core/error-codes.ts';
import { DomainError, invalidInput } from '../../../core/errors.ts';
import type { FileRecord, PendingUploadRecord } from '../../../core/ports/file-repositories.ts';
import { CATEGORIES, formatOf, isCategory, type Category, type Format } from './formats.ts';

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

/** An upload item that passed checkItem: normalised, with its format and category. */
export interface CheckedItem extends UploadItem {
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

/** Item `index` of an upload request: a file name, an extension of 1–16 letters or digits, 0 to 5 TiB, a hex MD5. */
export function checkItem(i: UploadItem, index: number): CheckedItem {
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

/** A project or crop cover: a png, jpg or jpeg of 1 byte to 10 MiB. */
export function checkCover(item: UploadItem): CheckedItem {
  const c = checkItem(item, 0);
  if (!FILES.coverExtensions.includes(c.extension)) throw invalidInput('A cover is a png, jpg or jpeg file', { field: 'extension' });
  if (c.size < 1 || c.size > FILES.coverMaxBytes) throw invalidInput(`A cover has 1 to ${FILES.coverMaxBytes} bytes`, { field: 'size' });
  return c;
}

/** The four fields of an upload item, without anything else the value carries. */
export const uploadItemOf = (c: UploadItem): UploadItem => ({ name: c.name, extension: c.extension, size: c.size, md5: c.md5 });

/** The name a download is saved under: the file's name with its extension. */
export const downloadName = (f: { name: string; extension: string }) =>
  f.name.toLowerCase().endsWith(`.${f.extension}`) ? f.name : `${f.name}.${f.extension}`;

/** `?category=a,b` (case-sensitive; empty: nothing; an unknown name: 400). undefined: every category. */
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
export const IDENTITY = { translation: { x: 0, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: 0, w: 1 } };
/** Categories placed in the project's space (a translation and a rotation from the start). */
export const PLACED: ReadonlySet<Category> = new Set(['scan', 'geoImage', 'model', 'video3d', 'gaussian']);

export const uploadError = (code: CodeWithStatus<400>, message: string, blobName: string) => new DomainError('invalid', code, message, { blobName });

/** A registration must come before the upload expires, with the extension, size and MD5 that were signed. */
export function matchesPending(p: PendingUploadRecord, c: UploadItem, now: Date): void {
  if (p.expiresAt.getTime() <= now.getTime()) throw uploadError('upload-expired', `The upload of ${p.blobName} has expired`, p.blobName);
  if (p.extension !== c.extension.replace(/^\./, '').toLowerCase() || p.size !== c.size || p.md5 !== c.md5.toLowerCase()) {
    throw uploadError('invalid-input', `extension, size and md5 must be those signed for ${p.blobName}`, p.blobName);
  }
}

/**
 * The pending row of a signed upload. It outlives its URL (`ttlSeconds` is at least the
 * URL's), so an upload finished at the URL's last second can still be registered.
 */
export function pendingUploadRecord(
  id: string,
  signed: UploadItem & { blobName: string },
  target: Pick<PendingUploadRecord, 'projectId' | 'workzoneId' | 'cropId' | 'kind' | 'category'>,
  userId: string,
  now: Date,
  ttlSeconds: number,
): PendingUploadRecord {
  return {
    id, blobName: signed.blobName, ...target, name: signed.name, extension: signed.extension, size: signed.size, md5: signed.md5,
    userId, createdAt: now, expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
  };
}

/**
 * The new file of a verified upload (the single-URL flow's registration, a multipart
 * completion): placed categories at the identity, scaled ones (360 videos, splats) at 1.
 */
export function newFileRecord(
  id: string, projectId: string, zoneId: string, c: { category: Category; format: Format; name: string; blobName: string },
  pending: Pick<PendingUploadRecord, 'extension' | 'size' | 'md5'>, userId: string, now: Date,
): FileRecord {
  const placed = PLACED.has(c.category);
  return {
    id, api1Id: '', projectId, workzoneId: zoneId, category: c.category, formatId: c.format.id, name: c.name,
    extension: pending.extension, size: pending.size, md5: pending.md5, blobName: c.blobName,
    translation: placed ? IDENTITY.translation : null, rotation: placed ? IDENTITY.rotation : null,
    scale: c.category === 'video3d' || c.category === 'gaussian' ? { x: 1, y: 1, z: 1 } : null,
    createdAt: now, createdBy: userId, updatedAt: null, updatedBy: null, importedAt: now,
  };
}
