// A point cloud's conversion as API 2 shows it (pure reshaping).
import type { Static } from 'typebox';
import type { PointCloudView } from '../core/point-clouds.ts';
import type { PointCloudStatus } from './schemas.ts';

export function presentPointCloud(v: PointCloudView, fileUrn: string, copcUrl: string): Static<typeof PointCloudStatus> {
  const c = v.cloud;
  return {
    fileId: fileUrn, state: c.state, phase: c.phase, pointsRead: c.pointsRead, pointsTotal: c.pointsTotal,
    percent: Math.round(c.percent * 10) / 10, etaSeconds: c.etaSeconds === null ? null : Math.round(c.etaSeconds),
    reason: c.reason, message: c.message, pointCount: c.pointCount, bounds: c.bounds, copcSize: c.outputSize, nodes: c.nodes,
    copcUrl: c.state === 'done' ? copcUrl : null,
    createdAt: c.createdAt.toISOString(), startedAt: c.startedAt?.toISOString() ?? null, finishedAt: c.finishedAt?.toISOString() ?? null,
    updatedAt: c.updatedAt.toISOString(),
  };
}
