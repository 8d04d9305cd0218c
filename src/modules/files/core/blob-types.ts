// How a blob is served (docs/security.md "Blobs"). Bytes come from users and are read back
// through URLs the service signs; a browser must never run them as a page. So the type a
// read answers comes from this allow-list, by the file's extension (a cover's by its
// checked image type), never from what the uploader sent; anything not listed is
// application/octet-stream. Only raster images without a file name (covers, crop
// thumbnails) are served inline; everything else is an attachment.

export const OCTET_STREAM = 'application/octet-stream';

/** Extension → the type a read serves. No HTML, SVG, XML or script type is ever listed. */
export const SERVED_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  zip: 'application/zip',
  mp4: 'video/mp4',
};

/** Types a browser renders as an image and nothing else (no script, no document). */
const INLINE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/bmp']);

export interface ServedAs {
  contentType: string;
  /** true: no Content-Disposition (an image shown in place); false: an attachment. */
  inline: boolean;
  fileName?: string;
}

/** The headers a blob's download URL binds: type by extension; inline only for an unnamed image. */
export function servedAs(extension: string, fileName?: string): ServedAs {
  const contentType = SERVED_TYPES[extension.trim().replace(/^\./, '').toLowerCase()] ?? OCTET_STREAM;
  const inline = fileName === undefined && INLINE_TYPES.has(contentType);
  return fileName === undefined ? { contentType, inline } : { contentType, inline, fileName };
}

/** The extension of a blob name (`<uuid>.<extension>`, made by the service), '' without one. */
export const extensionOfBlob = (blobName: string): string => {
  const dot = blobName.lastIndexOf('.');
  return dot < 0 ? '' : blobName.slice(dot + 1);
};

/**
 * Covers and crop thumbnails must be real PNG or JPEG images, checked at registration on
 * the stored object's first bytes: PNG's 8-byte signature (89 50 4E 47 0D 0A 1A 0A, RFC
 * 2083 §3.1), JPEG's SOI marker followed by a marker (FF D8 FF).
 */
export const IMAGE_SIGNATURES = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff],
} as const;

/** How many leading bytes the check reads. */
export const IMAGE_HEAD_BYTES = 8;

const startsWith = (head: Uint8Array, sig: readonly number[]) => head.length >= sig.length && sig.every((b, i) => head[i] === b);

/** true when the first bytes are the signature of the image type the extension names (png; jpg or jpeg). */
export function isCoverImage(extension: string, head: Uint8Array): boolean {
  const ext = extension.toLowerCase();
  if (ext === 'png') return startsWith(head, IMAGE_SIGNATURES.png);
  if (ext === 'jpg' || ext === 'jpeg') return startsWith(head, IMAGE_SIGNATURES.jpeg);
  return false;
}
