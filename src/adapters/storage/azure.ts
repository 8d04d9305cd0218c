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
import type {
  ObjectInfo, ObjectStore, SignDownloadInput, SignedUpload, SignUploadInput,
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

export class AzureStore implements ObjectStore {
  readonly provider = 'azure' as const;
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
