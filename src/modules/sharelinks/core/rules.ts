// Pure rules of share links (docs/share-links.md): the vendor's password policy, who may read
// or change a link (all links vs own links), what a link shows, how long a session lasts.
import { invalidInput } from '../../../core/errors.ts';
import type { PermissionRule } from '../../../core/permissions/authorizer.ts';
import type { BoxLimit, ShareLinkRecord, ShareOptions } from './ports.ts';

export const SHARE_LINK_LIMITS = {
  nameChars: 255,
  /** Additional shared zones of one link. */
  sharedWorkzones: 100,
  logoBlobChars: 1024,
  /** The saved view as JSON text. */
  savedViewChars: 64 * 1024,
  /** The vendor's ShareLinkPassword: at least 12 characters with 3 of the 4 classes, or at least 24 of anything. */
  passwordMinChars: 12,
  passwordAnyClassChars: 24,
  passwordMaxChars: 256,
  /** A link session lasts this long (the link's expiry and existence are still checked on each request). */
  sessionSeconds: 12 * 3600,
  /** A shared file's download URL (signed after the link's check on that request) lasts this long. */
  downloadSeconds: 60,
} as const;

/**
 * The vendor's ShareLinkPassword: "at least 12 characters long and contain at least 3 of the
 * following: uppercase, lowercase, digit, special characters, or be at least 24 characters long".
 */
export function checkPassword(password: string): void {
  const L = SHARE_LINK_LIMITS;
  if (password.length > L.passwordMaxChars) throw invalidInput(`password holds at most ${L.passwordMaxChars} characters`, { field: 'password' });
  if (password.length >= L.passwordAnyClassChars) return;
  const classes = [/[A-Z]/, /[a-z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
  if (password.length < L.passwordMinChars || classes < 3) {
    throw invalidInput(
      `password must be at least ${L.passwordMinChars} characters with 3 of uppercase, lowercase, digit and special characters, or at least ${L.passwordAnyClassChars} characters`,
      { field: 'password' },
    );
  }
}

/** A link's box limit (our extension): finite corners, min ≤ max on every axis (a box of zero width is a plane, and allowed). */
export function checkBoxLimit(box: BoxLimit): void {
  for (let a = 0; a < 3; a++) {
    const lo = box.min[a]!;
    const hi = box.max[a]!;
    if (!Number.isFinite(lo) || !Number.isFinite(hi)) throw invalidInput('boxLimit corners must be finite numbers', { field: 'boxLimit' });
    if (lo > hi) throw invalidInput(`boxLimit.min must not exceed boxLimit.max (axis ${'xyz'[a]}: ${lo} > ${hi})`, { field: 'boxLimit' });
  }
}

/** The vendor's updateShareLink: null or absent keeps the password, "" removes it, anything else replaces it. */
export type PasswordChange = { keep: true } | { remove: true } | { set: string };
export const passwordChangeOf = (password: string | null | undefined): PasswordChange =>
  password === null || password === undefined ? { keep: true } : password === '' ? { remove: true } : { set: password };

/**
 * Reading a link (vendor getShareLinks, getShareLink): `workzone:share-links:read` on its zone,
 * or `workzone:own-share-links:read` there for its creator. Writing: the same with `:write`.
 */
export function linkRule(link: Pick<ShareLinkRecord, 'createdBy'>, userId: string, access: 'read' | 'write'): PermissionRule {
  const all = `workzone:share-links:${access}` as const;
  const own = `workzone:own-share-links:${access}` as const;
  return link.createdBy === userId ? [[all], [own]] : all;
}

/** The zones a link shows: its zone, and its additional ones when the `workzones` option is on. */
export const sharedZoneIds = (link: Pick<ShareLinkRecord, 'workzoneId' | 'sharedWorkzoneIds' | 'shareOptions'>): string[] =>
  link.shareOptions.workzones ? [link.workzoneId, ...link.sharedWorkzoneIds.filter((z) => z !== link.workzoneId)] : [link.workzoneId];

/** A link stops working at its expiry (`expiresAt` null: never). */
export const isExpired = (link: Pick<ShareLinkRecord, 'expiresAt'>, now: Date): boolean => link.expiresAt !== null && link.expiresAt <= now;

/** Annotation types a link shows: "Note" with `notes`, "Issue" and "Resolved" with `issues`; a "Private note" never. */
export function sharedAnnotationTypes(options: ShareOptions): string[] {
  return [...(options.notes ? ['Note'] : []), ...(options.issues ? ['Issue', 'Resolved'] : [])];
}
