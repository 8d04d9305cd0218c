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

/**
 * A worker's old generation where the service counts external memory in V8's global limit
 * (GC_COUNT_EXTERNAL_MEMORY): that limit follows the old generation's, and with V8's default
 * a 20 M-point conversion then peaked at 1,236 MiB instead of 634; with 256 MiB at 674-686.
 * Not set otherwise: the smaller heap cost the conversion ~4% (17.3-17.4 s -> 17.8-18.4 s)
 * for nothing (docs/decisions.md, "External memory in V8's global limit").
 */
export const COUNTED_EXTERNAL_WORKER_OLD_GENERATION_MB = 256;

export function copcConverter(opts: { workers?: number; workerOldGenerationMb?: number } = {}): PointCloudConverter {
  return {
    formatOf: (extension) => formatOfName(`x.${extension}`),
    async convert(o) {
      try {
        return await convertToCopc({
          input: o.input, format: o.format as InputFormat, output: o.output, workDir: o.workDir, signal: o.signal,
          workers: opts.workers ?? serviceConversionWorkers(), workerOldGenerationMb: opts.workerOldGenerationMb, onProgress: o.onProgress,
        });
      } catch (e) {
        // The reader names its local copy (input.laz): the message names the user's file.
        if (e instanceof PointCloudError) throw new UnreadablePointCloud(e.reason, e.message.split(path.basename(o.input)).join(o.name));
        throw e;
      }
    },
  };
}
