// API 2 presenter of crops (pure reshaping: URNs in the deployment's namespace, the cover's 302 link).
import type { Static } from 'typebox';
import type { UrnType } from '../../../core/ids/urn.ts';
import type { CropView } from '../index.ts';
import type * as C from './schemas.ts';

export function cropPresenter(
  urn: (type: UrnType, id: string) => string,
  blobUrl: (accountId: string, projectId: string, blobName: string) => string,
): (v: CropView) => Static<typeof C.Crop> {
  const userUrn = (id: string | null) => (id ? urn('user', id) : '');
  return (v) => {
    const c = v.crop;
    return {
      id: urn('crop', c.id), urn: urn('crop', c.id), api1Id: c.api1Id, type: 'crop' as const, workzoneId: urn('workzone', c.workzoneId),
      name: c.name, crop: c.crop, actualCrop: c.actualCrop, rotation: c.rotation, layers: c.layers, cameraType: c.cameraType,
      cameraState: c.cameraState, scan: c.scan, thumbnailBlobName: c.thumbnailBlobName,
      thumbnailUrl: c.thumbnailBlobName ? blobUrl(v.accountId, c.projectId, c.thumbnailBlobName) : null,
      oview: c.oview, settings: c.settings, createdBy: userUrn(c.createdBy), createdAt: c.createdAt.toISOString(),
      updatedBy: userUrn(c.updatedBy ?? c.createdBy), updatedAt: c.updatedAt.toISOString(),
    };
  };
}
