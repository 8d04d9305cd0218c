// S3-type object store (CONTRACT §1, §7): presigned PutObject and GetObject URLs; the bytes
// go straight from the client to the storage. The PUT's URL signs Content-MD5, Cache-Control
// and Content-Length, so S3 refuses another body, length or cache header; the GET's URL
// names the service's Content-Type and Content-Disposition (response-content-*), so a read
// never serves the type the uploader sent; checksums are
// computed only when an operation requires them (requestChecksumCalculation WHEN_REQUIRED),
// so the URL carries no empty-body CRC that a real upload would contradict.
//
// STORAGE_URL=s3://BUCKET?endpoint=http://host:port&region=eu-west-1&forcePathStyle=true;
// credentials from the standard AWS chain (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, …).
// STORAGE_PUBLIC_URL: the scheme, host and port clients see; URLs are signed for that host.
import {
  AbortMultipartUploadCommand, CompleteMultipartUploadCommand, CopyObjectCommand, CreateBucketCommand, CreateMultipartUploadCommand,
  DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command,
  ListPartsCommand, PutObjectCommand, S3Client, UploadPartCommand, type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { DomainError } from '../../core/errors.ts';
import {
  MD5_HEX, S3_MULTIPART_LIMITS, checkComposite, checkHeldParts, checkPlan, partRange, partsMd5Hex, requireWholeMd5,
} from '../../core/ports/multipart-plan.ts';
import type {
  CompleteMultipartInput, CompletedMultipart, CreateMultipartInput, MultipartUpload, ObjectInfo, ObjectStore, SignDownloadInput,
  SignedPart, SignedUpload, SignPartsInput, SignUploadInput, StoredPart,
} from '../../core/ports/object-store.ts';
import { UPLOAD_CACHE_CONTROL, contentDisposition } from './local-disk.ts';

export interface S3Location {
  bucket: string;
  endpoint: string | undefined;
  region: string;
  forcePathStyle: boolean;
}

/** s3://BUCKET?endpoint=…&region=…&forcePathStyle=true */
export function parseS3Url(raw: string): S3Location {
  const url = new URL(raw);
  if (url.protocol !== 's3:' || !url.hostname) throw new Error('STORAGE_URL: expected s3://BUCKET?endpoint=…&region=…');
  const q = url.searchParams;
  const endpoint = q.get('endpoint') || undefined;
  if (endpoint && !/^https?:\/\/[^\s/]+/.test(endpoint)) throw new Error('STORAGE_URL: endpoint must be an http(s) URL');
  return {
    bucket: decodeURIComponent(url.hostname),
    endpoint,
    region: q.get('region') || 'us-east-1',
    forcePathStyle: ['1', 'true', 'yes'].includes((q.get('forcePathStyle') ?? '').toLowerCase()),
  };
}

export interface S3Options extends S3Location {
  /** The base clients see (STORAGE_PUBLIC_URL); URLs are signed for its host. */
  publicUrl?: string;
  /** Explicit credentials (tests); otherwise the SDK's default chain. */
  credentials?: S3ClientConfig['credentials'];
}

const statusOf = (e: unknown) => (e as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;

const isNoSuchUpload = (e: unknown) => (e as { name?: string })?.name === 'NoSuchUpload' || statusOf(e) === 404;
const uploadNotFound = () => new DomainError('not-found', 'upload-not-found', 'No such multipart upload (never started, aborted, or completed)');
/** An ETag without its quotes, lower case. */
const bareEtag = (etag: string | undefined) => (etag ?? '').replace(/"/g, '').toLowerCase();

/**
 * The SDK would add a default Content-Type and sign it: a client sending none would then
 * fail. No type is signed at upload: every download URL names the service's type instead
 * (ResponseContentType), so what the uploader sent is never served.
 */
function withoutDefaultContentType(command: { middlewareStack: PutObjectCommand['middlewareStack'] }): void {
  command.middlewareStack.add(
    (next) => async (args) => {
      const request = args.request as { headers?: Record<string, string> };
      if (request.headers) delete request.headers['content-type'];
      return next(args);
    },
    { step: 'build', name: 'scanbaseNoDefaultContentType' },
  );
}

const isNotFound = (e: unknown) => {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err?.name === 'NotFound' || err?.name === 'NoSuchKey' || err?.$metadata?.httpStatusCode === 404;
};

export class S3Store implements ObjectStore {
  readonly provider = 's3' as const;
  readonly multipartLimits = S3_MULTIPART_LIMITS;
  readonly client: S3Client;
  /** Signs the URLs clients use: the same client unless STORAGE_PUBLIC_URL names another host. */
  private readonly signer: S3Client;
  readonly bucket: string;

  constructor(opts: S3Options) {
    const common: S3ClientConfig = {
      region: opts.region,
      forcePathStyle: opts.forcePathStyle,
      credentials: opts.credentials,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    };
    this.bucket = opts.bucket;
    this.client = new S3Client({ ...common, endpoint: opts.endpoint });
    this.signer = opts.publicUrl ? new S3Client({ ...common, endpoint: opts.publicUrl }) : this.client;
  }

  /**
   * Creates the bucket when missing. Credentials limited to objects (no s3:ListBucket) get
   * 403 on HeadBucket: the bucket is then taken to exist, and uploads will tell.
   */
  async init(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (e) {
      if (statusOf(e) === 403) return;
      if (!isNotFound(e)) throw e;
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
    }
  }

  async signUpload(input: SignUploadInput, now: Date): Promise<SignedUpload> {
    const contentMd5 = Buffer.from(input.md5Hex, 'hex').toString('base64');
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: input.key,
      ContentLength: input.size,
      ContentMD5: contentMd5,
      CacheControl: UPLOAD_CACHE_CONTROL,
    });
    // CONTRACT §7 names three headers (the vendor's own example sends application/json).
    withoutDefaultContentType(command);
    const url = await getSignedUrl(this.signer, command, {
      expiresIn: input.expiresInSeconds,
      signingDate: now,
      // cache-control is unsignable by default: sign it, so the stored object serves it.
      signableHeaders: new Set(['content-md5', 'cache-control', 'content-length']),
    });
    const headers: Record<string, string> = {
      'Content-MD5': contentMd5,
      'Cache-Control': UPLOAD_CACHE_CONTROL,
      'x-ms-blob-type': 'BlockBlob',
    };
    return { url, headers, expiresAt: new Date(now.getTime() + input.expiresInSeconds * 1000) };
  }

  async createMultipart(input: CreateMultipartInput): Promise<MultipartUpload> {
    checkPlan(input, S3_MULTIPART_LIMITS);
    const res = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: input.key, CacheControl: UPLOAD_CACHE_CONTROL }));
    if (!res.UploadId) throw new Error('CreateMultipartUpload answered no UploadId');
    return { key: input.key, uploadId: res.UploadId, size: input.size, partSize: input.partSize };
  }

  /** Presigned UploadPart URLs signing content-md5 and content-length: S3 refuses another MD5, length or body digest. */
  async signParts(input: SignPartsInput, now: Date): Promise<SignedPart[]> {
    const { upload } = input;
    const out: SignedPart[] = [];
    for (const p of input.parts) {
      const { size } = partRange(upload, p.partNumber);
      if (!MD5_HEX.test(p.md5Hex)) throw new DomainError('invalid', 'invalid-input', 'md5 must be 32 hexadecimal digits', { partNumber: p.partNumber });
      const contentMd5 = Buffer.from(p.md5Hex, 'hex').toString('base64');
      const command = new UploadPartCommand({
        Bucket: this.bucket, Key: upload.key, UploadId: upload.uploadId, PartNumber: p.partNumber, ContentLength: size, ContentMD5: contentMd5,
      });
      withoutDefaultContentType(command as unknown as PutObjectCommand);
      const url = await getSignedUrl(this.signer, command, {
        expiresIn: input.expiresInSeconds, signingDate: now, signableHeaders: new Set(['content-md5', 'content-length']),
      });
      out.push({ partNumber: p.partNumber, size, url, headers: { 'Content-MD5': contentMd5 }, expiresAt: new Date(now.getTime() + input.expiresInSeconds * 1000) });
    }
    return out;
  }

  /** ListParts, every page: a part's ETag is the MD5 of its bytes (not with SSE-KMS or SSE-C: then null). */
  async listParts(upload: MultipartUpload): Promise<StoredPart[]> {
    const parts: StoredPart[] = [];
    let marker: string | undefined;
    try {
      do {
        const page = await this.client.send(new ListPartsCommand({ Bucket: this.bucket, Key: upload.key, UploadId: upload.uploadId, PartNumberMarker: marker }));
        for (const p of page.Parts ?? []) {
          const etag = bareEtag(p.ETag);
          parts.push({ partNumber: p.PartNumber ?? 0, size: p.Size ?? 0, md5Hex: MD5_HEX.test(etag) ? etag : null });
        }
        marker = page.IsTruncated ? page.NextPartNumberMarker : undefined;
      } while (marker);
    } catch (e) {
      if (isNoSuchUpload(e)) throw uploadNotFound();
      throw e;
    }
    return parts;
  }

  /**
   * Checks the parts S3 holds (all there, each of its planned size; the composite of their
   * ETags against the client's), completes with their ETags, and checks the object's ETag:
   * `<composite>-N` as S3 makes it, or, from a store that answers the plain MD5 of the whole
   * object, that MD5 against the file's (a mismatch then deletes the object).
   */
  async completeMultipart(input: CompleteMultipartInput): Promise<CompletedMultipart> {
    const { upload } = input;
    let held: StoredPart[];
    try {
      held = await this.listParts(upload);
    } catch (e) {
      if (e instanceof DomainError && e.code === 'upload-not-found' && (await this.stat(upload.key))) {
        throw new DomainError('conflict', 'upload-already-completed', 'This upload was completed already');
      }
      throw e;
    }
    const parts = checkHeldParts(upload, held);
    const md5Hex = requireWholeMd5(input.md5Hex);
    const known = parts.every((p) => p.md5Hex !== null);
    const composite = known ? partsMd5Hex(parts.map((p) => p.md5Hex!)) : null;
    if (composite) checkComposite(input.partsMd5Hex, composite);
    let etag: string;
    try {
      const res = await this.client.send(new CompleteMultipartUploadCommand({
        Bucket: this.bucket, Key: upload.key, UploadId: upload.uploadId,
        MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: `"${p.md5Hex ?? ''}"` })) },
      }));
      etag = bareEtag(res.ETag);
    } catch (e) {
      if (isNoSuchUpload(e)) throw uploadNotFound();
      throw e;
    }
    const wholeMd5 = MD5_HEX.test(etag) ? etag : null;
    const bad = wholeMd5 ? wholeMd5 !== md5Hex.toLowerCase() : composite !== null && etag !== `${composite}-${parts.length}`;
    if (bad) {
      await this.delete(upload.key);
      throw new DomainError('invalid', 'multipart-checksum-mismatch', 'The assembled object does not have the checksum of its parts', { etag });
    }
    return { size: upload.size, partCount: parts.length, partsMd5Hex: composite, md5Hex: wholeMd5 };
  }

  async abortMultipart(upload: Pick<MultipartUpload, 'key' | 'uploadId'>): Promise<void> {
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.key, UploadId: upload.uploadId }));
    } catch (e) {
      if (!isNoSuchUpload(e)) throw e;
    }
  }

  async signDownload(input: SignDownloadInput, now: Date): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: input.key,
      // The service's type and disposition, whatever the object was stored with (docs/security.md).
      ResponseContentType: input.contentType,
      ResponseContentDisposition: input.inline ? undefined : contentDisposition(input.fileName),
      // Reads serve the upload's cache header even for an object stored without it.
      ResponseCacheControl: UPLOAD_CACHE_CONTROL,
    });
    return getSignedUrl(this.signer, command, { expiresIn: input.expiresInSeconds, signingDate: now });
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      // A single-part upload's ETag is the hex MD5 of its bytes; a multipart one's is not ("…-N").
      const etag = (head.ETag ?? '').replace(/"/g, '').toLowerCase();
      return { size: head.ContentLength ?? 0, md5Hex: /^[0-9a-f]{32}$/.test(etag) ? etag : null };
    } catch (e) {
      if (isNotFound(e)) return null;
      throw e;
    }
  }

  async readHead(key: string, bytes: number): Promise<Uint8Array | null> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=0-${bytes - 1}` }));
      const body = await res.Body?.transformToByteArray();
      return (body ?? new Uint8Array(0)).subarray(0, bytes);
    } catch (e) {
      if (isNotFound(e)) return null;
      // A range of an empty object is unsatisfiable: it has no first bytes.
      if (statusOf(e) === 416) return new Uint8Array(0);
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    await this.client.send(
      new CopyObjectCommand({
        Bucket: this.bucket,
        Key: toKey,
        CopySource: `${this.bucket}/${fromKey.split('/').map(encodeURIComponent).join('/')}`,
      }),
    );
  }

  /** The storage answers: HeadBucket succeeds, or refuses these credentials the check (403). */
  async ping(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (e) {
      if (statusOf(e) !== 403) throw e;
    }
  }

  async deleteAll(): Promise<void> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, ContinuationToken: token }));
      const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length) {
        await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }));
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async close(): Promise<void> {
    this.client.destroy();
    if (this.signer !== this.client) this.signer.destroy();
  }
}
