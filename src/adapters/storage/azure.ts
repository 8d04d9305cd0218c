// Azure-type object store (CONTRACT §1, §7): service SAS URLs for one blob each, signed with
// the account key of AZURE_STORAGE_CONNECTION_STRING. An upload URL grants create+write on
// its blob only (another blob name fails the signature); Azure requires the client's
// `x-ms-blob-type: BlockBlob` and verifies the body against `Content-MD5`, which it keeps as
// the blob's MD5 (stat reads it back). Download URLs set the response Cache-Control
// (`rscc`, max-age=2592000), the service's Content-Type (`rsct`) and, unless inline,
// Content-Disposition: attachment (`rscd`) in the SAS itself, so every read serves them
// whatever the client stored.
//
// STORAGE_URL=azure://CONTAINER; STORAGE_PUBLIC_URL replaces the scheme, host and port of
// the URLs clients see (a SAS does not sign the host).
import {
  BlobSASPermissions, BlobServiceClient, generateBlobSASQueryParameters, StorageSharedKeyCredential,
  type ContainerClient,
} from '@azure/storage-blob';
import crypto from 'node:crypto';
import { DomainError } from '../../core/errors.ts';
import {
  AZURE_MULTIPART_LIMITS, MD5_HEX, checkComposite, checkHeldParts, checkPlan, partRange, partsMd5Hex, requireWholeMd5,
} from '../../core/ports/multipart-plan.ts';
import type {
  CompleteMultipartInput, CompletedMultipart, CreateMultipartInput, MultipartUpload, ObjectInfo, ObjectStore, SignDownloadInput,
  SignedPart, SignedUpload, SignPartsInput, SignUploadInput, StoredPart,
} from '../../core/ports/object-store.ts';
import { UPLOAD_CACHE_CONTROL, contentDisposition } from './local-disk.ts';
import { AZURE_CREDENTIALS_MISSING, accountCredentials } from './azure-connection-string.ts';

export interface AzureOptions {
  container: string;
  connectionString: string;
  /** The base clients see (STORAGE_PUBLIC_URL). */
  publicUrl?: string;
}

export function parseAzureUrl(raw: string): { container: string } {
  const url = new URL(raw);
  if (url.protocol !== 'azure:' || !url.hostname) throw new Error('STORAGE_URL: expected azure://CONTAINER');
  return { container: decodeURIComponent(url.hostname) };
}

/**
 * A multipart upload's block ids (docs/storage.md "Multipart uploads"): base64 of
 * `{upload id, 16 hex}-{part number, 6 digits}-{the part's MD5, hex}` (56 bytes, one length
 * for every block, as Azure requires). The id names the part and the MD5 it was signed
 * with, so a listing tells which part holds what; Azure checks a block's body against the
 * Content-MD5 the client sends with it.
 */
const AZURE_UPLOAD_ID = /^[0-9a-f]{16}$/;
const blockIdOf = (uploadId: string, partNumber: number, md5Hex: string) =>
  Buffer.from(`${uploadId}-${String(partNumber).padStart(6, '0')}-${md5Hex}`).toString('base64');
function parseBlockId(uploadId: string, blockId: string): { partNumber: number; md5Hex: string } | null {
  const m = /^([0-9a-f]{16})-(\d{6})-([0-9a-f]{32})$/.exec(Buffer.from(blockId, 'base64').toString('latin1'));
  return m && m[1] === uploadId ? { partNumber: Number(m[2]), md5Hex: m[3]! } : null;
}
const statusCodeOf = (e: unknown) => (e as { statusCode?: number }).statusCode;

export class AzureStore implements ObjectStore {
  readonly provider = 'azure' as const;
  readonly multipartLimits = AZURE_MULTIPART_LIMITS;
  readonly container: ContainerClient;
  private readonly credential: StorageSharedKeyCredential;
  private readonly publicOrigin: string | undefined;

  constructor(opts: AzureOptions) {
    // config.ts refuses a string without them at start; a store built otherwise (tests) says so too.
    const credentials = accountCredentials(opts.connectionString);
    if (!credentials) throw new Error(AZURE_CREDENTIALS_MISSING);
    this.credential = new StorageSharedKeyCredential(credentials.account, credentials.key);
    const service = BlobServiceClient.fromConnectionString(opts.connectionString);
    this.container = service.getContainerClient(opts.container);
    this.publicOrigin = opts.publicUrl ? new URL(opts.publicUrl).origin : undefined;
  }

  /** Creates the container when missing. */
  async init(): Promise<void> {
    await this.container.createIfNotExists();
  }

  private publicUrlOf(url: string): string {
    if (!this.publicOrigin) return url;
    const u = new URL(url);
    return this.publicOrigin + u.pathname + u.search;
  }

  private sas(
    key: string, permissions: string, now: Date, seconds: number,
    extra: { cacheControl?: string; contentDisposition?: string; contentType?: string } = {},
  ) {
    return generateBlobSASQueryParameters(
      {
        containerName: this.container.containerName,
        blobName: key,
        permissions: BlobSASPermissions.parse(permissions),
        expiresOn: new Date(now.getTime() + seconds * 1000),
        ...extra,
      },
      this.credential,
    ).toString();
  }

  async signUpload(input: SignUploadInput, now: Date): Promise<SignedUpload> {
    const blob = this.container.getBlockBlobClient(input.key);
    const headers: Record<string, string> = {
      'Content-MD5': Buffer.from(input.md5Hex, 'hex').toString('base64'),
      'Cache-Control': UPLOAD_CACHE_CONTROL,
      'x-ms-blob-type': 'BlockBlob',
    };
    // No type is bound at upload (a SAS cannot, without a header clients do not send): every
    // download SAS names the service's type instead (rsct), so the stored one is never served.
    return {
      url: this.publicUrlOf(`${blob.url}?${this.sas(input.key, 'cw', now, input.expiresInSeconds)}`),
      headers,
      expiresAt: new Date(now.getTime() + input.expiresInSeconds * 1000),
    };
  }

  /** Nothing to create at Azure: the id only names this upload's blocks (uncommitted blocks expire after 7 days on their own). */
  async createMultipart(input: CreateMultipartInput): Promise<MultipartUpload> {
    checkPlan(input, AZURE_MULTIPART_LIMITS);
    return { key: input.key, uploadId: crypto.randomBytes(8).toString('hex'), size: input.size, partSize: input.partSize };
  }

  /** Put Block URLs: a write SAS on the blob (`sp=w`), the block id naming the part and its MD5; Content-MD5 to send. */
  async signParts(input: SignPartsInput, now: Date): Promise<SignedPart[]> {
    const { upload } = input;
    if (!AZURE_UPLOAD_ID.test(upload.uploadId)) throw new DomainError('not-found', 'upload-not-found', 'No such multipart upload');
    const blob = this.container.getBlockBlobClient(upload.key);
    const sas = this.sas(upload.key, 'w', now, input.expiresInSeconds);
    return input.parts.map((p) => {
      const { size } = partRange(upload, p.partNumber);
      if (!MD5_HEX.test(p.md5Hex)) throw new DomainError('invalid', 'invalid-input', 'md5 must be 32 hexadecimal digits', { partNumber: p.partNumber });
      const blockId = blockIdOf(upload.uploadId, p.partNumber, p.md5Hex);
      return {
        partNumber: p.partNumber,
        size,
        url: this.publicUrlOf(`${blob.url}?comp=block&blockid=${encodeURIComponent(blockId)}&${sas}`),
        headers: { 'Content-MD5': Buffer.from(p.md5Hex, 'hex').toString('base64') },
        expiresAt: new Date(now.getTime() + input.expiresInSeconds * 1000),
      };
    });
  }

  /** This upload's uncommitted blocks (Get Block List); none for an upload Azure has no block of. */
  async listParts(upload: MultipartUpload): Promise<StoredPart[]> {
    let blocks: { name: string; size: number }[];
    try {
      blocks = (await this.container.getBlockBlobClient(upload.key).getBlockList('uncommitted')).uncommittedBlocks ?? [];
    } catch (e) {
      if (statusCodeOf(e) === 404) return [];
      throw e;
    }
    const parts = new Map<number, StoredPart>();
    for (const b of blocks) {
      const id = parseBlockId(upload.uploadId, b.name);
      // Two blocks of one part (sent again with other bytes): the part is taken as missing.
      if (id) parts.set(id.partNumber, parts.has(id.partNumber) ? { partNumber: id.partNumber, size: -1, md5Hex: null } : { partNumber: id.partNumber, size: b.size, md5Hex: id.md5Hex });
    }
    return [...parts.values()].filter((p) => p.size >= 0).sort((a, b) => a.partNumber - b.partNumber);
  }

  /**
   * Commits the blocks of parts 1..N in order (Put Block List) after the shared checks; the
   * blob's Content-MD5 property is set to the file's MD5 as the client sent it (Azure does
   * not compute it): the composite of the block MD5s is what is checked.
   */
  async completeMultipart(input: CompleteMultipartInput): Promise<CompletedMultipart> {
    const { upload } = input;
    const blob = this.container.getBlockBlobClient(upload.key);
    if (await this.committedByThisUpload(upload)) throw new DomainError('conflict', 'upload-already-completed', 'This upload was completed already');
    const parts = checkHeldParts(upload, await this.listParts(upload));
    const md5Hex = requireWholeMd5(input.md5Hex);
    const composite = partsMd5Hex(parts.map((p) => p.md5Hex!));
    checkComposite(input.partsMd5Hex, composite);
    await blob.commitBlockList(parts.map((p) => blockIdOf(upload.uploadId, p.partNumber, p.md5Hex!)), {
      blobHTTPHeaders: { blobContentMD5: Buffer.from(md5Hex, 'hex'), blobCacheControl: UPLOAD_CACHE_CONTROL },
    });
    return { size: upload.size, partCount: parts.length, partsMd5Hex: composite, md5Hex: null };
  }

  /** true when the blob exists and its committed blocks are this upload's. */
  private async committedByThisUpload(upload: Pick<MultipartUpload, 'key' | 'uploadId'>): Promise<boolean> {
    try {
      const list = await this.container.getBlockBlobClient(upload.key).getBlockList('committed');
      const first = list.committedBlocks?.[0];
      return first !== undefined && parseBlockId(upload.uploadId, first.name) !== null;
    } catch (e) {
      if (statusCodeOf(e) === 404) return false;
      throw e;
    }
  }

  /**
   * Azure has no call that drops uncommitted blocks: committing an empty block list does
   * (the blob becomes empty), and the empty blob is then deleted. A blob that exists
   * already (a completed upload, or anything else) is left alone.
   */
  async abortMultipart(upload: Pick<MultipartUpload, 'key' | 'uploadId'>): Promise<void> {
    const blob = this.container.getBlockBlobClient(upload.key);
    if (await blob.exists()) return;
    try {
      await blob.commitBlockList([], { conditions: { ifNoneMatch: '*' } });
    } catch (e) {
      // 409/412: a blob appeared meanwhile (committed by someone): not ours to drop.
      if (statusCodeOf(e) === 409 || statusCodeOf(e) === 412) return;
      throw e;
    }
    await blob.deleteIfExists();
  }

  async signDownload(input: SignDownloadInput, now: Date): Promise<string> {
    const blob = this.container.getBlobClient(input.key);
    const sas = this.sas(input.key, 'r', now, input.expiresInSeconds, {
      cacheControl: UPLOAD_CACHE_CONTROL,
      // rsct and rscd: the service's type and disposition, whatever the blob was stored with.
      contentType: input.contentType,
      contentDisposition: input.inline ? undefined : contentDisposition(input.fileName),
    });
    return this.publicUrlOf(`${blob.url}?${sas}`);
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const p = await this.container.getBlobClient(key).getProperties();
      return {
        size: p.contentLength ?? 0,
        md5Hex: p.contentMD5 && p.contentMD5.length === 16 ? Buffer.from(p.contentMD5).toString('hex') : null,
      };
    } catch (e) {
      if ((e as { statusCode?: number }).statusCode === 404) return null;
      throw e;
    }
  }

  async readHead(key: string, bytes: number): Promise<Uint8Array | null> {
    const blob = this.container.getBlobClient(key);
    try {
      // download, not downloadToBuffer: that one insists on `bytes` bytes from a shorter blob.
      const res = await blob.download(0, bytes);
      const chunks: Buffer[] = [];
      for await (const chunk of (res.readableStreamBody ?? []) as AsyncIterable<Buffer>) chunks.push(chunk);
      return new Uint8Array(Buffer.concat(chunks)).subarray(0, bytes);
    } catch (e) {
      const status = (e as { statusCode?: number }).statusCode;
      if (status === 404) return null;
      // A range of an empty blob is unsatisfiable: it has no first bytes.
      if (status === 416) return new Uint8Array(0);
      throw e;
    }
  }

  async delete(key: string): Promise<void> {
    await this.container.getBlobClient(key).deleteIfExists();
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    const source = this.container.getBlobClient(fromKey);
    const poller = await this.container.getBlobClient(toKey).beginCopyFromURL(source.url);
    await poller.pollUntilDone();
  }

  async ping(): Promise<void> {
    await this.container.getProperties();
  }

  async deleteAll(): Promise<void> {
    for await (const b of this.container.listBlobsFlat()) await this.container.getBlobClient(b.name).deleteIfExists();
  }
}
