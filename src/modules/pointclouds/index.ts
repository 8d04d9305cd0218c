// The pointclouds module (docs/point-clouds.md "The module"): conversion of registered
// point-cloud files to COPC on the job runner, their progress, and the COPC output served
// by byte range with the file's read permission. The converter itself is src/pointclouds.
export type { PointClouds, PointCloudView, CopcObject, SharedCloudLayout, SharedCloudNode } from './core/point-clouds.ts';
export type { PointCloudIntake } from './core/intake.ts';
export { CONVERT_JOB } from './core/intake.ts';
export { COPC_CONTENT_TYPE } from './core/conversion-job.ts';
export type { PointCloudRecord, PointCloudState, ConversionPhase, PointCloudObjects, BoxLimit } from './core/ports.ts';
export { POINT_CLOUD_EXTENSIONS } from './core/ports.ts';
