// The uploads module's records and repository port (migration 0022): one multipart upload
// as the service keeps it. Its reservation is a pending upload of the files module with the
// same id (capacities, storage quota, the deletion queue); this record holds the store's
// upload id and the plan, and after completion the file it became.

export interface MultipartUploadRecord {
  id: string;
  projectId: string;
  workzoneId: string;
  blobName: string;
  /** The file category (its extension's), which names the write permission. */
  category: string;
  name: string;
  extension: string;
  size: number;
  partSize: number;
  /** The store's id of the upload (S3 UploadId, Azure's block-id prefix, the local disk's directory). */
  storeUploadId: string;
  /** Who started it: only he may use it (anyone else gets 404 upload-not-found). */
  userId: string | null;
  createdAt: Date;
  expiresAt: Date;
  /** The registered file, once completed. */
  fileId: string | null;
  completedAt: Date | null;
}

export interface MultipartUploadsRepo {
  insert(r: MultipartUploadRecord): Promise<void>;
  byId(projectId: string, id: string): Promise<MultipartUploadRecord | null>;
  /** The record, locked for the rest of the transaction (completion, abort). */
  byIdForUpdate(projectId: string, id: string): Promise<MultipartUploadRecord | null>;
  markCompleted(id: string, fileId: string, now: Date): Promise<void>;
  remove(id: string): Promise<void>;
  /**
   * Records past expires_at (completed or not) and records whose project was permanently
   * deleted (the row outlives it: migration 0034), oldest expiry first, locked; rows another
   * transaction holds are skipped.
   */
  claimExpired(now: Date, limit: number): Promise<MultipartUploadRecord[]>;
}
