// PointCloudConverter over this project's converter (src/pointclouds: readers of E57, LAS,
// LAZ and PLY, the COPC writer, worker threads on every core but one, checkpoints).
import os from 'node:os';
import path from 'node:path';
import { convertToCopc, formatOfName, PointCloudError, type InputFormat } from '../../../pointclouds/index.ts';
import { UnreadablePointCloud, type PointCloudConverter } from '../core/ports.ts';

/**
 * Worker threads of a conversion in the service: every core but one. The conversion's
 * passes all run in its workers, so with every core it would leave none to the service's
 * requests (and, in the tests, to the browsers beside it) for the whole conversion.
 */
export const serviceConversionWorkers = (cores = os.availableParallelism()) => Math.max(1, cores - 1);

export function copcConverter(opts: { workers?: number } = {}): PointCloudConverter {
  return {
    formatOf: (extension) => formatOfName(`x.${extension}`),
    async convert(o) {
      try {
        return await convertToCopc({
          input: o.input, format: o.format as InputFormat, output: o.output, workDir: o.workDir, signal: o.signal,
          workers: opts.workers ?? serviceConversionWorkers(), onProgress: o.onProgress,
        });
      } catch (e) {
        // The reader names its local copy (input.laz): the message names the user's file.
        if (e instanceof PointCloudError) throw new UnreadablePointCloud(e.reason, e.message.split(path.basename(o.input)).join(o.name));
        throw e;
      }
    },
  };
}
