// Local-disk object store (CONTRACT §1, §7; docs/storage.md): the ObjectStore port over
// two parts, the signed URLs the service itself receives and serves (local-disk-urls.ts,
// src/http/blobs.ts) and the objects on disk (local-disk-objects.ts, which writes uploads
// through flushing-writer.ts). A URL is verified before the disk is touched.
import type { Readable } from 'node:stream';
import { DomainError } from '../../core/errors.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { Logger } from '../../core/ports/telemetry.ts';
import type {
  CompleteMultipartInput, CompletedMultipart, CreateMultipartInput, MultipartUpload, ObjectInfo, ObjectStore, SignDownloadInput,
  SignedPart, SignedUpload, SignPartsInput, SignUploadInput, StoredPart,
} from '../../core/ports/object-store.ts';
import { LOCAL_MULTIPART_LIMITS } from '../../core/ports/multipart-plan.ts';
import { DiskMultipart } from './local-disk-multipart.ts';
import { DiskObjects, type ObjectMeta } from './local-disk-objects.ts';
import { SignedBlobUrls, UPLOAD_CACHE_CONTROL, type UploadRequest, type VerifiedPart, type VerifiedUpload } from './local-disk-urls.ts';

export { BLOB_ROUTE_PREFIX, UPLOAD_CACHE_CONTROL, contentDisposition, isValidKey } from './local-disk-urls.ts';
export type { UploadRequest, VerifiedPart, VerifiedUpload } from './local-disk-urls.ts';
export { FlushingWriter, type WriteTarget } from './flushing-writer.ts';

export interface LocalDiskOptions {
  /** Where background failures (the sweep of temporary files) are logged. */
  logger?: Logger;
  /** Directory holding the objects (created if missing). */
  root: string;
  /** BLOB_PUBLIC_URL, else STORAGE_PUBLIC_URL, else PUBLIC_URL: the base of every signed URL. */
  publicUrl: string;
  /** The HMAC key, shared by every node (kept in the database). */
  signingKey: () => Promise<Buffer>;
  /** The service clock: URL expiry follows the sandbox clock. */
  clock: Clock;
  /** Remove the root on close (a temporary root of an in-memory deployment). */
  removeRootOnClose?: boolean;
}

export interface DownloadTarget {
  path: string;
  size: number;
  md5Hex: string;
  cacheControl: string;
  /** The type signed into the URL (application/octet-stream when none was). */
  contentType: string;
  /** false: Content-Disposition: attachment (with fileName when given). */
  inline: boolean;
  fileName: string | undefined;
}

export class LocalDiskStore implements ObjectStore {
  readonly provider = 'local' as const;
  readonly multipartLimits = LOCAL_MULTIPART_LIMITS;
  private readonly urls: SignedBlobUrls;
  private readonly objects: DiskObjects;
  private readonly multipart: DiskMultipart;

  constructor(opts: LocalDiskOptions) {
    this.urls = new SignedBlobUrls({ publicUrl: opts.publicUrl, signingKey: opts.signingKey, clock: opts.clock });
    this.objects = new DiskObjects({
      root: opts.root, logger: opts.logger, removeRootOnClose: opts.removeRootOnClose, alsoSweep: () => this.multipart.sweepIdle(),
    });
    this.multipart = new DiskMultipart(this.objects, this.urls);
  }

  get root(): string {
    return this.objects.root;
  }

  /** Creates the root directory and starts the sweep of temporary files (DiskObjects.init). */
  init(): Promise<void> {
    return this.objects.init();
  }

  sweepTemporary(idleMs?: number): Promise<string[]> {
    return this.objects.sweepTemporary(idleMs);
  }

  /** The file of a key, resolved inside the root; throws on a key that is not ours. */
  pathOf(key: string): string {
    return this.objects.pathOf(key);
  }

  signUpload(input: SignUploadInput, now: Date): Promise<SignedUpload> {
    return this.urls.signUpload(input, now);
  }

  signDownload(input: SignDownloadInput, now: Date): Promise<string> {
    return this.urls.signDownload(input, now);
  }

  /** Verifies a PUT's URL and headers before a byte of the body is read. */
  verifyUpload(req: UploadRequest): Promise<VerifiedUpload> {
    return this.urls.verifyUpload(req);
  }

  /** Streams a verified upload to disk (DiskObjects.receive). */
  receive(upload: VerifiedUpload, body: Readable): Promise<{ size: number; md5Hex: string }> {
    return this.objects.receive(upload, body);
  }

  createMultipart(input: CreateMultipartInput): Promise<MultipartUpload> {
    return this.multipart.create(input);
  }

  signParts(input: SignPartsInput, now: Date): Promise<SignedPart[]> {
    return this.multipart.signParts(input, now);
  }

  listParts(upload: MultipartUpload): Promise<StoredPart[]> {
    return this.multipart.listParts(upload);
  }

  completeMultipart(input: CompleteMultipartInput): Promise<CompletedMultipart> {
    return this.multipart.complete(input);
  }

  abortMultipart(upload: Pick<MultipartUpload, 'key' | 'uploadId'>): Promise<void> {
    return this.multipart.abort(upload);
  }

  /** The multipart area's uploads idle for `idleMs` are removed (also run by the periodic sweep). */
  sweepIdleMultipart(idleMs?: number): Promise<string[]> {
    return this.multipart.sweepIdle(idleMs);
  }

  /** Verifies a part's PUT URL and headers before a byte of the body is read. */
  verifyPart(req: UploadRequest): Promise<VerifiedPart> {
    return this.urls.verifyPart(req);
  }

  /** Writes a verified part at its offset (DiskMultipart.receivePart). */
  receivePart(part: VerifiedPart, body: Readable): Promise<{ size: number; md5Hex: string }> {
    return this.multipart.receivePart(part, body);
  }

  /** Verifies a GET/HEAD URL; answers the file to serve. */
  async verifyDownload(key: string, query: Record<string, string | undefined>): Promise<DownloadTarget> {
    const allowed = await this.urls.verifyDownload(key, query);
    const file = this.objects.pathOf(key);
    const found = await this.objects.read(file);
    if (!found) throw new DomainError('not-found', 'blob-not-found', 'No object at this address');
    return {
      path: file,
      size: found.size,
      md5Hex: found.md5,
      cacheControl: found.cacheControl || UPLOAD_CACHE_CONTROL,
      contentType: allowed.contentType,
      inline: allowed.inline,
      fileName: allowed.fileName,
    };
  }

  stat(key: string): Promise<ObjectInfo | null> {
    return this.objects.stat(key);
  }

  readHead(key: string, bytes: number): Promise<Uint8Array | null> {
    return this.objects.readHead(key, bytes);
  }

  delete(key: string): Promise<void> {
    return this.objects.delete(key);
  }

  copy(fromKey: string, toKey: string): Promise<void> {
    return this.objects.copy(fromKey, toKey);
  }

  ping(): Promise<void> {
    return this.objects.ping();
  }

  /** Every object with its metadata (snapshots). */
  listObjects(): AsyncGenerator<{ key: string; meta: ObjectMeta }> {
    return this.objects.list();
  }

  /** An object's bytes, or bytes start..end (inclusive) of it (null: none). */
  openObject(key: string, range?: { start: number; end: number }): Promise<Readable | null> {
    return this.objects.open(key, range);
  }

  /** Writes an object whole, checked against its size and MD5 (a snapshot's restore). */
  writeObject(key: string, body: Readable, meta: { size: number; md5: string; contentType?: string; cacheControl?: string }): Promise<void> {
    return this.objects.write(key, body, meta);
  }

  /** Deletes every object (operator reset). */
  deleteAll(): Promise<void> {
    return this.objects.deleteAll();
  }

  close(): Promise<void> {
    return this.objects.close();
  }
}
