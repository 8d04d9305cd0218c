// The object-storage port: where file bytes live. The service never receives file
// bytes through its API; clients PUT them straight to a signed URL and GET them from
// one. Three adapters implement it (src/adapters/storage/): local disk (the service
// itself receives and serves the signed URLs), S3-type and Azure-type.
//
// Keys are produced by the core only (`blobKey` below), never taken from a client path.

export type StorageProvider = 'local' | 's3' | 'azure';

export interface SignedUpload {
  /** Absolute URL the client PUTs the bytes to. */
  url: string;
  /** Headers the client must send with the PUT (CONTRACT §7). */
  headers: Record<string, string>;
  expiresAt: Date;
}

export interface SignUploadInput {
  key: string;
  /** Exact byte length the PUT must carry. */
  size: number;
  /** MD5 of the bytes, lower-case hex. */
  md5Hex: string;
  /**
   * The content type chosen by the service (src/modules/files/core/blob-types.ts), recorded with the
   * object where the store can bind it without a request header (the local disk signs it
   * into the URL and ignores the uploader's Content-Type). S3 and Azure do not bind it at
   * upload: a signed Content-Type needs a header CONTRACT §7 clients do not send; their
   * download URLs override the type instead.
   */
  contentType?: string;
  expiresInSeconds: number;
}

export interface SignDownloadInput {
  key: string;
  expiresInSeconds: number;
  /** The Content-Type every read of this URL answers, chosen by the service (never the uploader's). */
  contentType: string;
  /**
   * true: no Content-Disposition (an image shown in place); otherwise every read answers
   * `Content-Disposition: attachment` (with the file name when given).
   */
  inline?: boolean;
  /** File name offered to the browser (Content-Disposition), optional. */
  fileName?: string;
}

export interface ObjectInfo {
  size: number;
  /** MD5 of the stored bytes, lower-case hex, when the store knows it. */
  md5Hex: string | null;
}

/**
 * What a store allows of a multipart upload (docs/storage.md "Multipart uploads"): every
 * part but the last has the plan's part size, within [minPartBytes, maxPartBytes]; at most
 * maxParts parts. The plan rule is `planPartSize` (src/core/ports/multipart-plan.ts).
 */
export interface MultipartLimits {
  minPartBytes: number;
  maxPartBytes: number;
  maxParts: number;
}

/**
 * One multipart upload as the core records it: the key, the store's id for it, and the
 * plan (parts 1..ceil(size / partSize), each partSize bytes, the last the rest). Every
 * call after the creation names it whole: S3 and Azure keep no plan of their own.
 */
export interface MultipartUpload {
  key: string;
  uploadId: string;
  size: number;
  partSize: number;
}

export interface CreateMultipartInput {
  key: string;
  size: number;
  partSize: number;
  /** The service's content type (as SignUploadInput.contentType): the local disk records it. */
  contentType?: string;
}

export interface PartToSign {
  partNumber: number;
  /** MD5 of the part's bytes, lower-case hex: the store refuses a body with another digest. */
  md5Hex: string;
}

export interface SignPartsInput {
  upload: MultipartUpload;
  parts: PartToSign[];
  expiresInSeconds: number;
}

export interface SignedPart {
  partNumber: number;
  /** Exact byte length the PUT must carry. */
  size: number;
  url: string;
  /** Headers the client must send with the PUT (Content-MD5 on every store). */
  headers: Record<string, string>;
  expiresAt: Date;
}

/** A part the store holds (for resume, and what completion checks). */
export interface StoredPart {
  partNumber: number;
  size: number;
  /** MD5 of the part, hex, as the store verified and recorded it; null where it does not say. */
  md5Hex: string | null;
}

export interface CompleteMultipartInput {
  upload: MultipartUpload;
  /**
   * The MD5 of the whole file, hex (the one the vendor's file record carries). Absent: the
   * store computes it from the assembled bytes (`computesWholeMd5`); a store that cannot
   * (S3, Azure) refuses with 400 `invalid-input` before assembling anything.
   */
  md5Hex?: string;
  /**
   * The client's composite: MD5 of the concatenated binary MD5s of parts 1..N (S3's
   * multipart ETag without its "-N"). When given, the parts the store holds must give it.
   */
  partsMd5Hex?: string;
}

export interface CompletedMultipart {
  size: number;
  partCount: number;
  /**
   * The composite of the parts the store assembled (see CompleteMultipartInput.partsMd5Hex);
   * null where the store's part checksums are not MD5s (S3 with SSE-KMS or SSE-C).
   */
  partsMd5Hex: string | null;
  /**
   * The whole file's MD5 where the store computed it from the assembled bytes (local disk)
   * or reports it (an S3-type store whose ETag is the plain MD5); null where it does not.
   */
  md5Hex: string | null;
}

export interface ObjectStore {
  readonly provider: StorageProvider;
  readonly multipartLimits: MultipartLimits;
  signUpload(input: SignUploadInput, now: Date): Promise<SignedUpload>;
  signDownload(input: SignDownloadInput, now: Date): Promise<string>;
  /** Size and MD5 of a stored object, or null when there is none. */
  stat(key: string): Promise<ObjectInfo | null>;
  /** The first `bytes` bytes of an object (fewer when it is shorter), or null when there is none. */
  readHead(key: string, bytes: number): Promise<Uint8Array | null>;
  /** Deletes an object; deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Server-side copy (work-zone copy). */
  copy(fromKey: string, toKey: string): Promise<void>;
  /** Starts a multipart upload of `size` bytes in parts of `partSize` (checked against multipartLimits). */
  createMultipart(input: CreateMultipartInput): Promise<MultipartUpload>;
  /**
   * Signs PUT URLs of some parts (a page, or one part on demand), each bound to its part
   * number, its exact size and its MD5. Part numbers outside 1..partCount: 400
   * `part-number-out-of-range`; an unknown upload: 404 `upload-not-found` (local disk).
   */
  signParts(input: SignPartsInput, now: Date): Promise<SignedPart[]>;
  /** The parts the store holds, by part number (404 `upload-not-found` when it knows no such upload). */
  listParts(upload: MultipartUpload): Promise<StoredPart[]>;
  /**
   * Assembles the parts into the object at the key, after checking every part 1..N is held
   * with its planned size (400 `parts-missing`, `part-mismatch`) and the composite or whole
   * MD5 (400 `multipart-checksum-mismatch`): nothing is published when a check fails.
   * Again after success: 409 `upload-already-completed`; unknown or aborted: 404 `upload-not-found`.
   */
  completeMultipart(input: CompleteMultipartInput): Promise<CompletedMultipart>;
  /**
   * Removes an unfinished upload and the parts it holds (the sweeper's hook for abandoned
   * uploads: it needs only the key and the id). An unknown or finished upload is not an error.
   */
  abortMultipart(upload: Pick<MultipartUpload, 'key' | 'uploadId'>): Promise<void>;
  /** Throws when the store does not answer (GET /healthz). */
  ping?(): Promise<void>;
  /** Deletes every object of the deployment (POST /_operator/reset). */
  deleteAll?(): Promise<void>;
  close?(): Promise<void>;
}

/** Object keys: `<project uuid>/<blob name>`; blob names are generated by the service. */
export function blobKey(projectId: string, blobName: string): string {
  return `${projectId}/${blobName}`;
}
