// The local-disk store's signed URLs (CONTRACT §1, §7; docs/storage.md): signing, and the
// checks of a PUT or GET against its signature before the disk is touched.
//
// Signed URL format, {base} = BLOB_PUBLIC_URL, else STORAGE_PUBLIC_URL, else PUBLIC_URL:
//   PUT  {base}/_blobs/{key}?expires={unix s}&size={bytes}&md5={hex}[&type={type}]&sig={base64url}
//   GET  {base}/_blobs/{key}?expires={unix s}&type={type}[&inline=1][&name={file name}]&sig={base64url}
//   PUT  {base}/_blobs/{key}?upload={id}&part={n}&expires={unix s}&size={bytes}&md5={hex}&sig={base64url}  (a multipart part)
// sig = HMAC-SHA256 under a key kept in the database (shared by every node) over
// "v2\nPUT\n{key}\n{expires}\n{size}\n{md5}\n{type}", "v2\nGET\n{key}\n{expires}\n{name}\n{type}\n{inline}"
// or "v2\nPART\n{key}\n{id}\n{n}\n{expires}\n{size}\n{md5}".
// The type is the service's (src/modules/files/core/blob-types.ts): the uploader's Content-Type is
// ignored, and a read answers only the signed type and disposition (docs/security.md).
import crypto from 'node:crypto';
import { DomainError } from '../../core/errors.ts';
import type { CodeWithStatus } from '../../core/error-codes.ts';
import { safeEqual } from '../../core/crypto/digest.ts';
import type { Clock } from '../../core/ports/clock.ts';
import type { SignDownloadInput, SignedUpload, SignUploadInput } from '../../core/ports/object-store.ts';

export const BLOB_ROUTE_PREFIX = '/_blobs/';
export const UPLOAD_CACHE_CONTROL = 'max-age=2592000';
export const MD5_HEX = /^[0-9a-f]{32}$/;

/** `attachment`, with the file name (ASCII and RFC 8187 forms) when given; every store's downloads use it. */
export function contentDisposition(name: string | undefined): string {
  if (name === undefined) return 'attachment';
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * A key is 1 to 8 segments joined by "/", each 1-255 characters of [A-Za-z0-9._~=-] that
 * does not start with "." (so no "..", no hidden names: temporary and metadata files start
 * with "."), 1,024 characters at most. Anything else is refused before touching the disk.
 */
const SEGMENT = /^[A-Za-z0-9_~=-][A-Za-z0-9._~=-]{0,254}$/;

export function isValidKey(key: string): boolean {
  if (typeof key !== 'string' || key.length === 0 || key.length > 1024) return false;
  const parts = key.split('/');
  return parts.length <= 8 && parts.every((p) => SEGMENT.test(p));
}

export const storeForbidden = (code: CodeWithStatus<403>, message: string) => new DomainError('forbidden', code, message);
export const storeInvalid = (code: CodeWithStatus<400>, message: string) => new DomainError('invalid', code, message);
export const invalidBlobKey = () => storeInvalid('invalid-blob-key', 'Invalid object key');

const SIGNATURE_INVALID = () => storeForbidden('signature-invalid', 'The URL signature does not match');

export interface SignedUrlOptions {
  /** BLOB_PUBLIC_URL, else STORAGE_PUBLIC_URL, else PUBLIC_URL: the base of every signed URL. */
  publicUrl: string;
  /** The HMAC key, shared by every node (kept in the database). */
  signingKey: () => Promise<Buffer>;
  /** The service clock: URL expiry follows the sandbox clock. */
  clock: Clock;
}

export interface UploadRequest {
  key: string;
  query: Record<string, string | undefined>;
  contentLength: string | undefined;
  contentMd5: string | undefined;
  cacheControl: string | undefined;
  /** true when the request body is chunked (no Content-Length). */
  chunked: boolean;
}

export interface VerifiedUpload {
  key: string;
  size: number;
  md5Hex: string;
  cacheControl: string | undefined;
  /** The signed type (the uploader's Content-Type header is not used). */
  contentType: string | undefined;
}

/** A verified PUT of one part of a multipart upload (local-disk-multipart.ts). */
export interface VerifiedPart {
  key: string;
  uploadId: string;
  partNumber: number;
  size: number;
  md5Hex: string;
}

/** A local multipart upload id: 32 hex digits (also its directory's name). */
export const UPLOAD_ID = /^[0-9a-f]{32}$/;

/** What a verified GET/HEAD URL allows: the object at `key`, served with the signed type and disposition. */
export interface VerifiedDownload {
  key: string;
  /** The type signed into the URL (application/octet-stream when none was). */
  contentType: string;
  /** false: Content-Disposition: attachment (with fileName when given). */
  inline: boolean;
  fileName: string | undefined;
}

export class SignedBlobUrls {
  private readonly base: string;
  private key: Promise<Buffer> | null = null;
  private readonly opts: SignedUrlOptions;

  constructor(opts: SignedUrlOptions) {
    this.opts = opts;
    this.base = opts.publicUrl.replace(/\/+$/, '') + BLOB_ROUTE_PREFIX.slice(0, -1);
  }

  private signingKey(): Promise<Buffer> {
    return (this.key ??= this.opts.signingKey().catch((e: unknown) => {
      this.key = null; // retry on the next call
      throw e;
    }));
  }

  private async mac(text: string): Promise<string> {
    return crypto.createHmac('sha256', await this.signingKey()).update(text, 'utf8').digest('base64url');
  }

  private urlOf(key: string, params: Record<string, string>): string {
    const encoded = key.split('/').map(encodeURIComponent).join('/');
    return `${this.base}/${encoded}?${new URLSearchParams(params).toString()}`;
  }

  async signUpload(input: SignUploadInput, now: Date): Promise<SignedUpload> {
    if (!isValidKey(input.key)) throw invalidBlobKey();
    if (!Number.isSafeInteger(input.size) || input.size < 0) throw storeInvalid('invalid-input', 'size must be a non-negative integer');
    const md5 = input.md5Hex.toLowerCase();
    if (!MD5_HEX.test(md5)) throw storeInvalid('invalid-input', 'md5 must be 32 hexadecimal digits');
    const expires = Math.floor(now.getTime() / 1000) + input.expiresInSeconds;
    const type = input.contentType ?? '';
    const sig = await this.mac(`v2\nPUT\n${input.key}\n${expires}\n${input.size}\n${md5}\n${type}`);
    // No Content-Type header: the signed type is recorded whatever the client sends.
    const headers: Record<string, string> = {
      'Content-MD5': Buffer.from(md5, 'hex').toString('base64'),
      'Cache-Control': UPLOAD_CACHE_CONTROL,
      'x-ms-blob-type': 'BlockBlob',
    };
    const params: Record<string, string> = { expires: String(expires), size: String(input.size), md5 };
    if (type) params.type = type;
    params.sig = sig;
    return {
      url: this.urlOf(input.key, params),
      headers,
      expiresAt: new Date(expires * 1000),
    };
  }

  /** A part's PUT URL: the key, upload, part number, size and MD5 are signed. */
  async signPart(
    input: { key: string; uploadId: string; partNumber: number; size: number; md5Hex: string; expiresInSeconds: number }, now: Date,
  ): Promise<SignedUpload> {
    if (!isValidKey(input.key)) throw invalidBlobKey();
    const md5 = input.md5Hex.toLowerCase();
    if (!MD5_HEX.test(md5)) throw storeInvalid('invalid-input', 'md5 must be 32 hexadecimal digits');
    const expires = Math.floor(now.getTime() / 1000) + input.expiresInSeconds;
    const sig = await this.mac(partText(input.key, input.uploadId, String(input.partNumber), String(expires), String(input.size), md5));
    return {
      url: this.urlOf(input.key, {
        upload: input.uploadId, part: String(input.partNumber), expires: String(expires), size: String(input.size), md5, sig,
      }),
      headers: { 'Content-MD5': Buffer.from(md5, 'hex').toString('base64') },
      expiresAt: new Date(expires * 1000),
    };
  }

  async signDownload(input: SignDownloadInput, now: Date): Promise<string> {
    if (!isValidKey(input.key)) throw invalidBlobKey();
    const expires = Math.floor(now.getTime() / 1000) + input.expiresInSeconds;
    const name = input.fileName ?? '';
    const type = input.contentType;
    const inline = input.inline ? '1' : '';
    const sig = await this.mac(`v2\nGET\n${input.key}\n${expires}\n${name}\n${type}\n${inline}`);
    const params: Record<string, string> = { expires: String(expires), type };
    if (inline) params.inline = inline;
    if (name) params.name = name;
    params.sig = sig;
    return this.urlOf(input.key, params);
  }

  /** Checks a signed URL's signature, then its expiry (a tampered expiry is a bad signature). */
  private async checkSignature(text: string, query: Record<string, string | undefined>): Promise<number> {
    const { expires, sig } = query;
    if (!expires || !sig || !/^\d{1,12}$/.test(expires)) throw SIGNATURE_INVALID();
    if (!safeEqual(sig, await this.mac(text))) throw SIGNATURE_INVALID();
    const exp = Number(expires);
    if (this.opts.clock.nowMs() > exp * 1000) throw storeForbidden('url-expired', 'The signed URL has expired');
    return exp;
  }

  /** Verifies a PUT's URL and headers before a byte of the body is read. */
  async verifyUpload(req: UploadRequest): Promise<VerifiedUpload> {
    if (!isValidKey(req.key)) throw SIGNATURE_INVALID();
    const { size, md5 } = req.query;
    if (!size || !md5 || !/^\d{1,16}$/.test(size) || !MD5_HEX.test(md5)) throw SIGNATURE_INVALID();
    const type = req.query.type ?? '';
    await this.checkSignature(`v2\nPUT\n${req.key}\n${req.query.expires}\n${size}\n${md5}\n${type}`, req.query);
    checkBodyHeaders(req, size, md5);
    return {
      key: req.key,
      size: Number(size),
      md5Hex: md5,
      cacheControl: req.cacheControl?.slice(0, 256),
      contentType: type || undefined,
    };
  }

  /** Verifies a part's PUT URL (`upload` and `part` in the query) and headers before a byte of the body is read. */
  async verifyPart(req: UploadRequest): Promise<VerifiedPart> {
    const { size, md5, upload, part } = req.query;
    if (!isValidKey(req.key) || !upload || !UPLOAD_ID.test(upload) || !part || !/^[1-9]\d{0,5}$/.test(part)) throw SIGNATURE_INVALID();
    if (!size || !md5 || !/^\d{1,16}$/.test(size) || !MD5_HEX.test(md5)) throw SIGNATURE_INVALID();
    await this.checkSignature(partText(req.key, upload, part, req.query.expires ?? '', size, md5), req.query);
    checkBodyHeaders(req, size, md5);
    return { key: req.key, uploadId: upload, partNumber: Number(part), size: Number(size), md5Hex: md5 };
  }

  /** Verifies a GET/HEAD URL's signature and expiry; answers what it allows to serve. */
  async verifyDownload(key: string, query: Record<string, string | undefined>): Promise<VerifiedDownload> {
    if (!isValidKey(key)) throw SIGNATURE_INVALID();
    const name = query.name ?? '';
    const type = query.type ?? '';
    const inline = query.inline ?? '';
    await this.checkSignature(`v2\nGET\n${key}\n${query.expires}\n${name}\n${type}\n${inline}`, query);
    return { key, contentType: type || 'application/octet-stream', inline: inline === '1', fileName: name || undefined };
  }
}

const partText = (key: string, upload: string, part: string, expires: string, size: string, md5: string) =>
  `v2\nPART\n${key}\n${upload}\n${part}\n${expires}\n${size}\n${md5}`;

/** A signed PUT's body headers: a Content-Length equal to the signed size, a Content-MD5 equal to the signed MD5. */
function checkBodyHeaders(req: UploadRequest, size: string, md5: string): void {
  if (req.contentLength === undefined || req.chunked) {
    throw storeInvalid('length-required', 'The upload needs a Content-Length header');
  }
  if (req.contentLength !== size) {
    throw storeInvalid('content-length-mismatch', `Content-Length must be the signed size (${size} bytes)`);
  }
  const declared = req.contentMd5 === undefined ? undefined : base64Md5ToHex(req.contentMd5);
  if (declared === undefined) throw storeInvalid('content-md5-missing', 'The upload needs a Content-MD5 header (base64 of the MD5)');
  if (declared !== md5) throw storeInvalid('content-md5-mismatch', 'Content-MD5 does not match the signed MD5');
}

/** Content-MD5 is the base64 of the 16-byte digest (RFC 1864); anything else answers undefined-as-mismatch. */
function base64Md5ToHex(value: string): string {
  const v = value.trim();
  if (!/^[A-Za-z0-9+/]{22}==$/.test(v)) return 'malformed';
  return Buffer.from(v, 'base64').toString('hex');
}
