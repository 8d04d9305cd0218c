// Which work-zone permissions each file category needs (spec "Project and work zone
// roles" combination table; vendor signUploadURL, updateFileName,
// UpdateBulkFilesTransformation). Each entry lists alternatives: holding every permission
// of one alternative is enough; a refusal names the first (requirePermission in
// src/core/permissions/authorizer.ts takes these tables as rules).
import type { Permission } from '../../../core/permissions/catalog.ts';
import { categoryOf, type Category } from './formats.ts';

type Alternatives = readonly (readonly Permission[])[];

const REALITY_WRITE: Alternatives = [['workzone:reality-data:write', 'workzone:import-jobs-reality-data:write']];
const DOCUMENTS_WRITE: Alternatives = [['workzone:documents:write']];

/** Upload (sign, register), rename and delete. */
export const WRITE: Record<Category, Alternatives> = {
  scan: REALITY_WRITE,
  geoImage: REALITY_WRITE,
  sitemap: REALITY_WRITE,
  gaussian: REALITY_WRITE,
  // legacy upload_doc: "upload and download documents and 3D models"; the CAD models row too.
  model: [['workzone:cad-model:write'], ['workzone:documents:write']],
  modelReport: [['workzone:model-reports:write']],
  document: DOCUMENTS_WRITE,
  media: DOCUMENTS_WRITE,
  miscfile: DOCUMENTS_WRITE,
  archive: DOCUMENTS_WRITE,
  video3d: [['workzone:video3d:write']],
};

const REALITY_READ: Alternatives = [['workzone:reality-data:read']];
const DOCUMENTS_READ: Alternatives = [['workzone:documents:read']];

/** Download of the bytes (blobs). Listing and reading the metadata need workzone:workzones:read (vendor getFiles). */
export const READ: Record<Category, Alternatives> = {
  scan: REALITY_READ,
  geoImage: REALITY_READ,
  sitemap: REALITY_READ,
  gaussian: REALITY_READ,
  model: [['workzone:cad-model:read'], ['workzone:documents:read']],
  modelReport: [['workzone:model-reports:read']],
  document: DOCUMENTS_READ,
  media: DOCUMENTS_READ,
  miscfile: DOCUMENTS_READ,
  archive: DOCUMENTS_READ,
  video3d: [['workzone:video3d:read']],
};

/**
 * Moving, rotating, scaling (vendor UpdateBulkFilesTransformation). The vendor's
 * `geoimages:transform` and `video3d:transform` are not in the spec's catalogue: geo
 * images use the scans' permission, 360 videos their write permission.
 */
export const TRANSFORM: Partial<Record<Category, { alternatives: Alternatives; scale: boolean }>> = {
  scan: { alternatives: [['workzone:reality-data:transform']], scale: false },
  geoImage: { alternatives: [['workzone:reality-data:transform']], scale: false },
  model: { alternatives: [['workzone:cad-model:transform']], scale: false },
  video3d: { alternatives: [['workzone:video3d:write']], scale: true },
  gaussian: { alternatives: [['workzone:reality-data:transform']], scale: true },
};

export function holdsAny(held: ReadonlySet<Permission>, alternatives: Alternatives): boolean {
  return alternatives.some((alt) => alt.every((p) => held.has(p)));
}

/** True when the permissions held on a file's zone let the caller download it (READ of its category). */
export const mayDownload = (held: ReadonlySet<Permission>, file: { category: string }): boolean => holdsAny(held, READ[categoryOf(file)]);
