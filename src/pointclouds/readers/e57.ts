import { PointCloudError } from '../errors.ts';
import type { PointCloudReader } from './reader.ts';
export async function openE57(file: string): Promise<PointCloudReader> {
  throw new PointCloudError('unsupported', `${file}: E57 not yet`);
}
