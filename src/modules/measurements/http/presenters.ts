// API 2 presenter of measurements (pure reshaping).
import type { Static } from 'typebox';
import type { UrnType } from '../../../core/ids/urn.ts';
import type { MeasurementView } from '../index.ts';
import type * as M from './schemas.ts';

export function measurementPresenters(urn: (type: UrnType, id: string) => string) {
  const measurement = (v: MeasurementView): Static<typeof M.Measurement> => {
    const m = v.measurement;
    const d = v.measured;
    return {
      id: urn('measurement', m.id), type: 'measurement', workzoneId: urn('workzone', m.workzoneId), name: m.name,
      startPoint: d.startPoint, endPoint: d.endPoint, length: d.length, height: d.height, width: d.width,
      thumbnailBlobName: null, cameraState: m.cameraState, scanId: m.scanId ? urn('file', m.scanId) : null,
      createdAt: m.createdAt.toISOString(), createdBy: m.createdBy ? urn('user', m.createdBy) : null, isDeleted: false, deletedAt: null,
      kind: m.kind, points: m.points, area: d.area, updatedAt: m.updatedAt.toISOString(), updatedBy: m.updatedBy ? urn('user', m.updatedBy) : null,
    };
  };
  return { measurement };
}
