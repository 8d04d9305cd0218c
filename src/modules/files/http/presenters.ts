// API 2 presenters of files: the vendor's per-category File shapes as far as our data goes;
// URN ids and the 302 links of stored objects (docs/files.md). A crop's: src/modules/crops/http.
import type { Static } from 'typebox';
import { formatUrn } from '../../../core/ids/urn.ts';
import type { FileView } from '../core/project-files.ts';
import { api2Kit, type KitCore } from '../../../http/api2/route-kit.ts';
import type * as F from './schemas.ts';

export function filePresenters(core: KitCore) {
  const { ns, urn, blobUrl } = api2Kit(core);
  const userUrn = (id: string | null) => (id ? urn('user', id) : '');

  /** The vendor's per-category File shapes, as far as our data goes (docs/files.md). */
  const file = (v: FileView) => {
    const f = v.file;
    const url = blobUrl(v.accountId, f.projectId, f.blobName);
    const base = {
      id: urn('file', f.id), urn: urn('file', f.id), api1Id: f.id, type: f.category as Static<typeof F.File>['type'],
      projectId: urn('project', f.projectId), workzoneId: urn('workzone', f.workzoneId), name: f.name, extension: f.extension,
      formatId: formatUrn(ns, 'format', String(f.formatId)), size: f.size, md5: f.md5, createdAt: f.createdAt.toISOString(),
      createdBy: userUrn(f.createdBy), updatedAt: f.updatedAt?.toISOString() ?? null, updatedBy: f.updatedBy ? urn('user', f.updatedBy) : null,
      blob: f.blobName, blobName: f.blobName, url,
    };
    const placed = { importedAt: f.importedAt?.toISOString() ?? null, translation: f.translation, rotation: f.rotation };
    const image = { resolution: { w: 0, h: 0 }, urlPreview: url, panoramaWidth: 0, panoramaHeight: 0 };
    switch (f.category) {
      case 'scan':
        return { ...base, ...placed, scale: f.scale, ...image };
      case 'geoImage':
        return { ...base, ...placed, translation: f.translation ?? { x: 0, y: 0, z: 0 }, ...image };
      case 'model':
        return { ...base, ...placed, scale: f.scale, contentId: f.id };
      case 'gaussian':
      case 'video3d':
        return { ...base, ...placed, translation: f.translation ?? { x: 0, y: 0, z: 0 }, scale: f.scale };
      default:
        return base;
    }
  };
  return { file };
}
