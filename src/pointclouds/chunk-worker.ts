// The worker thread of the conversion: runs the requests the converter's pool sends
// (worker-pool.ts), one at a time, and answers each with its result or the error's message
// (with its reason when the input is at fault).
import { parentPort, workerData } from 'node:worker_threads';
import { indexChunk } from './chunk-indexer.ts';
import { distributeRange } from './distribute.ts';
import { PointCloudError } from './errors.ts';
import { encodeLazChunk } from './laz/chunk-encoder.ts';
import type { WorkerAnswer, WorkerRequest } from './worker-pool.ts';

if (!parentPort) throw new Error('chunk-worker.ts runs as a worker thread');
const port = parentPort;
const abortFlag = (workerData as { abortFlag: Int32Array }).abortFlag;
const aborted = () => Atomics.load(abortFlag, 0) === 1;
const answer = (a: WorkerAnswer, transfer: ArrayBuffer[] = []) => port.postMessage(a, transfer);

async function run(request: WorkerRequest & { id: number }): Promise<void> {
  const { id } = request;
  if (request.kind === 'encode') {
    const bytes = encodeLazChunk(request.format, request.records, request.count);
    answer({ id, result: bytes }, [bytes.buffer as ArrayBuffer]);
  } else if (request.kind === 'distribute') {
    let reported = 0;
    const result = await distributeRange(
      request.task,
      (points) => {
        // A few messages a second at most: every 2^20 points.
        if (points - reported < 1 << 20) return;
        reported = points;
        answer({ id, progress: points });
      },
      aborted,
    );
    answer({ id, result });
  } else answer({ id, result: indexChunk(request.task) });
}

port.on('message', (request: WorkerRequest & { id: number }) => {
  run(request).catch((e: unknown) => {
    const reason = e instanceof PointCloudError ? { reason: e.reason } : {};
    answer({ id: request.id, error: e instanceof Error ? e.message : String(e), ...reason });
  });
});
