// The worker thread of the conversion: runs the requests the converter's pool sends
// (worker-pool.ts), one at a time, and answers each with its result or the error's message
// (with its reason when the input is at fault).
import { parentPort, workerData } from 'node:worker_threads';
import { indexChunk } from './chunk-indexer.ts';
import { countRange, distributeRange } from './range-passes.ts';
import { PointCloudError } from './errors.ts';
import { encodeLazChunk } from './laz/chunk-encoder.ts';
import type { WorkerAnswer, WorkerRequest } from './worker-pool.ts';

if (!parentPort) throw new Error('chunk-worker.ts runs as a worker thread');
const port = parentPort;
const abortFlag = (workerData as { abortFlag: Int32Array }).abortFlag;
const aborted = () => Atomics.load(abortFlag, 0) === 1;
const answer = (a: WorkerAnswer, transfer: ArrayBuffer[] = []) => port.postMessage(a, transfer);

/** Reports a range's points done to the pool, every 2^20 points (a few messages a second at most). */
function progressOf(id: number): (points: number) => void {
  let reported = 0;
  return (points) => {
    if (points - reported < 1 << 20) return;
    reported = points;
    answer({ id, progress: points });
  };
}

async function run(request: WorkerRequest & { id: number }): Promise<void> {
  const { id } = request;
  if (request.kind === 'encode') {
    const bytes = encodeLazChunk(request.format, request.records, request.count);
    answer({ id, result: bytes }, [bytes.buffer as ArrayBuffer]);
  } else if (request.kind === 'count') {
    const tally = await countRange(request.task, progressOf(id), aborted);
    answer({ id, result: tally }, [tally.histogram.buffer as ArrayBuffer]);
  } else if (request.kind === 'distribute') {
    answer({ id, result: await distributeRange(request.task, progressOf(id), aborted) });
  } else answer({ id, result: indexChunk(request.task) });
}

port.on('message', (request: WorkerRequest & { id: number }) => {
  run(request).catch((e: unknown) => {
    const reason = e instanceof PointCloudError ? { reason: e.reason } : {};
    answer({ id: request.id, error: e instanceof Error ? e.message : String(e), ...reason });
  });
});
