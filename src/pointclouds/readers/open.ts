// Picks the reader from the file's extension, after checking that the content is what the
// extension says: a ".e57" that starts with "LASF" fails with a reason naming what it looks
// like, before any reader runs.
import fs from 'node:fs/promises';
import path from 'node:path';
import { PointCloudError } from '../errors.ts';
import { openE57 } from './e57.ts';
import { openLas } from './las.ts';
import { openPly } from './ply.ts';
import type { InputFormat, PointCloudReader } from './reader.ts';

const EXTENSIONS: Record<string, InputFormat> = { '.las': 'las', '.laz': 'laz', '.ply': 'ply', '.e57': 'e57' };

/** The input format an extension names (case-insensitive), or null for files this library does not read. */
export function formatOfName(name: string): InputFormat | null {
  return EXTENSIONS[path.extname(name).toLowerCase()] ?? null;
}

/** What the first bytes of a file look like, in words. */
export function sniff(head: Uint8Array): { format: InputFormat | 'laz-or-las' | null; words: string } {
  const text = new TextDecoder('latin1').decode(head.subarray(0, 16));
  if (text.startsWith('LASF')) {
    const compressed = head.length > 104 && (head[104]! & 0xc0) !== 0;
    return { format: compressed ? 'laz' : 'las', words: compressed ? 'a LAZ file' : 'a LAS file' };
  }
  if (text.startsWith('ASTM-E57')) return { format: 'e57', words: 'an E57 file' };
  if (/^ply\r?\n/.test(text)) return { format: 'ply', words: 'a PLY file' };
  if (text.startsWith('PK')) return { format: null, words: 'a ZIP archive' };
  if (head[0] === 0x1f && head[1] === 0x8b) return { format: null, words: 'a gzip file' };
  if (text.startsWith('%PDF')) return { format: null, words: 'a PDF document' };
  if (head[0] === 0xff && head[1] === 0xd8) return { format: null, words: 'a JPEG image' };
  if (text.startsWith('\x89PNG')) return { format: null, words: 'a PNG image' };
  if (head.length === 0) return { format: null, words: 'an empty file' };
  const printable = head.subarray(0, 64).every((b) => b === 9 || b === 10 || b === 13 || (b >= 32 && b < 127));
  return { format: null, words: printable ? 'text' : 'unknown binary data' };
}

/**
 * Opens a point-cloud file for streaming. `format` defaults to the extension's; a content
 * that is not that format fails with PointCloudError('wrong_format'). A LAS file named
 * .laz (or the reverse) is read for what it is: the header says which.
 */
export async function openPointCloud(file: string, format?: InputFormat): Promise<PointCloudReader> {
  const name = path.basename(file);
  const expected = format ?? formatOfName(name);
  if (!expected) throw new PointCloudError('unknown_extension', `${name}: only .e57, .las, .laz and .ply files are converted`);
  const fh = await fs.open(file, 'r');
  const head = new Uint8Array(128);
  let length: number;
  try {
    ({ bytesRead: length } = await fh.read(head, 0, head.length, 0));
  } finally {
    await fh.close();
  }
  const seen = sniff(head.subarray(0, length));
  const lasFamily = (f: string | null) => f === 'las' || f === 'laz';
  if (seen.format !== expected && !(lasFamily(seen.format) && lasFamily(expected))) {
    throw new PointCloudError('wrong_format', `${name} is not ${article(expected)} file: its content looks like ${seen.words}`);
  }
  switch (expected) {
    case 'las':
    case 'laz':
      return openLas(file);
    case 'ply':
      return openPly(file);
    case 'e57':
      return openE57(file);
  }
}

const article = (f: InputFormat) => (f === 'e57' ? 'an E57' : `a ${f.toUpperCase()}`);
