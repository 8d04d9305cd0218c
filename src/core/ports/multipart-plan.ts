// The part-size rule of multipart uploads (docs/storage.md "Multipart uploads") and the
// arithmetic of a plan, shared by the core and the store adapters. Pure.
//
// The stores' limits (MultipartLimits, each adapter's `multipartLimits`):
//   S3-type     parts 5 MiB – 5 GiB (the last may be smaller), at most 10,000 parts
//   Azure-type  blocks up to 4,000 MiB, at most 50,000 committed blocks (our floor: 1 MiB)
//   local disk  parts 1 MiB – 5 GiB, at most 100,000 parts (our own limits)
// Files are 1 byte to 5 TiB (FILES.maxFileBytes).
//
// The rule: partSize = the largest of
//   - the part size asked for (default 16 MiB), rounded up to a whole MiB,
//   - ceil(size / maxParts) rounded up to a whole MiB (so the parts fit the store's count),
//   - the store's minimum part size;
// then lowered to the store's maximum when the request asked for more. For 5 TiB this
// gives 525 MiB parts on S3 (10,000 parts), 105 MiB on Azure (≈ 49,933 blocks) and
// 53 MiB on local disk (≈ 98,920 parts), all within the maxima.
import { createHash } from 'node:crypto';
import { DomainError, invalidInput } from '../errors.ts';
import type { MultipartLimits, MultipartUpload } from './object-store.ts';

export const MiB = 1024 * 1024;
export const DEFAULT_PART_BYTES = 16 * MiB;
export const MAX_MULTIPART_BYTES = 5 * 1024 ** 4;

export const S3_MULTIPART_LIMITS: MultipartLimits = { minPartBytes: 5 * MiB, maxPartBytes: 5 * 1024 * MiB, maxParts: 10_000 };
export const AZURE_MULTIPART_LIMITS: MultipartLimits = { minPartBytes: MiB, maxPartBytes: 4000 * MiB, maxParts: 50_000 };
export const LOCAL_MULTIPART_LIMITS: MultipartLimits = { minPartBytes: MiB, maxPartBytes: 5 * 1024 * MiB, maxParts: 100_000 };

const roundUpMiB = (n: number) => Math.ceil(n / MiB) * MiB;

/** The part size of an upload of `size` bytes on a store with `limits` (the rule above). */
export function planPartSize(size: number, limits: MultipartLimits, requested?: number): number {
  if (!Number.isSafeInteger(size) || size < 1 || size > MAX_MULTIPART_BYTES) {
    throw invalidInput(`size must be an integer from 1 to ${MAX_MULTIPART_BYTES} bytes`, { field: 'size' });
  }
  if (requested !== undefined && (!Number.isSafeInteger(requested) || requested < 1)) {
    throw invalidInput('partSize must be a positive integer', { field: 'partSize' });
  }
  const asked = Math.min(roundUpMiB(requested ?? DEFAULT_PART_BYTES), limits.maxPartBytes);
  const partSize = Math.max(asked, roundUpMiB(Math.ceil(size / limits.maxParts)), limits.minPartBytes);
  if (partSize > limits.maxPartBytes) throw invalidInput('The file is too large for this store', { field: 'size' });
  return partSize;
}

/** Parts of a plan: ceil(size / partSize). */
export const partCountOf = (u: Pick<MultipartUpload, 'size' | 'partSize'>): number => Math.ceil(u.size / u.partSize);

/** Where part `n` (1-based) lies in the file; 400 `part-number-out-of-range` outside 1..partCount. */
export function partRange(u: Pick<MultipartUpload, 'size' | 'partSize'>, n: number): { offset: number; size: number } {
  const count = partCountOf(u);
  if (!Number.isSafeInteger(n) || n < 1 || n > count) {
    throw new DomainError('invalid', 'part-number-out-of-range', `Part numbers go from 1 to ${count}`, { partNumber: n, partCount: count });
  }
  const offset = (n - 1) * u.partSize;
  return { offset, size: Math.min(u.partSize, u.size - offset) };
}

/** Checks a plan against a store's limits (a plan made for another store, or tampered with). */
export function checkPlan(u: Pick<MultipartUpload, 'size' | 'partSize'>, limits: MultipartLimits): void {
  const count = Number.isSafeInteger(u.size) && Number.isSafeInteger(u.partSize) && u.partSize > 0 ? partCountOf(u) : 0;
  if (u.size < 1 || u.size > MAX_MULTIPART_BYTES || count < 1 || count > limits.maxParts || u.partSize > limits.maxPartBytes
    || (count > 1 && u.partSize < limits.minPartBytes)) {
    throw invalidInput(`No multipart plan of ${u.size} bytes in parts of ${u.partSize} on this store`, { field: 'partSize' });
  }
}

/** The composite checksum: MD5 of the concatenated binary MD5s of the parts, in part order (hex in, hex out). */
export function partsMd5Hex(partMd5s: readonly string[]): string {
  const h = createHash('md5');
  for (const m of partMd5s) h.update(Buffer.from(m, 'hex'));
  return h.digest('hex');
}

export const MD5_HEX = /^[0-9a-f]{32}$/;

/**
 * The completion checks shared by every store, over the parts it holds: every part 1..N
 * present (400 `parts-missing`, with the first missing numbers), each of its planned size
 * and, where the store knows it, of the MD5 it was signed with (400 `part-mismatch`).
 * Answers the held parts in order.
 */
export function checkHeldParts(u: MultipartUpload, held: readonly { partNumber: number; size: number; md5Hex: string | null }[]) {
  const count = partCountOf(u);
  const byNumber = new Map(held.map((p) => [p.partNumber, p]));
  const missing: number[] = [];
  let missingCount = 0;
  for (let n = 1; n <= count; n++) {
    if (byNumber.has(n)) continue;
    missingCount++;
    if (missing.length < 20) missing.push(n);
  }
  if (missingCount > 0) {
    // The message says which (API 1's {code, message} carries no errorValues).
    const first = `${missing.join(', ')}${missingCount > missing.length ? ', …' : ''}`;
    throw new DomainError('invalid', 'parts-missing', `${missingCount} of ${count} parts are not uploaded (missing: ${first})`, { missing, missingCount, partCount: count });
  }
  const ordered = [];
  for (let n = 1; n <= count; n++) {
    const p = byNumber.get(n)!;
    const expected = partRange(u, n).size;
    if (p.size !== expected) {
      throw new DomainError('invalid', 'part-mismatch', `Part ${n} has ${p.size} bytes, not ${expected}`, { partNumber: n, size: p.size, expectedSize: expected });
    }
    ordered.push(p);
  }
  return ordered;
}

/** A completion without the whole MD5 on a store that cannot compute it: 400 `invalid-input`, before anything is assembled. */
export function requireWholeMd5(md5Hex: string | undefined): string {
  if (md5Hex === undefined) {
    throw new DomainError('invalid', 'invalid-input', 'md5 (the whole file\'s MD5) is required on this store', { field: 'md5' });
  }
  return md5Hex;
}

/** The composite given by the client must be the one of the parts held: 400 `multipart-checksum-mismatch`. */
export function checkComposite(expected: string | undefined, actual: string): void {
  if (expected !== undefined && expected.toLowerCase() !== actual) {
    throw new DomainError('invalid', 'multipart-checksum-mismatch', `The parts held give the composite checksum ${actual}, not the one sent`, { partsMd5: actual });
  }
}
