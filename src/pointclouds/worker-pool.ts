// The conversion's worker threads: a fixed pool that runs the CPU-heavy steps (counting or
// distributing a range of the input, indexing a chunk, LAZ-encoding a node) on every core
// while the main thread plans and writes. Each worker takes one request at a time; requests
// wait for an idle worker in order. `abort()` raises a flag every worker reads between
// batches.
import { Worker } from 'node:worker_threads';
import type { ChunkResult, ChunkTask } from './chunk-indexer.ts';
import type { DistributeResult, DistributeTask, RangeTask, Tally } from './range-passes.ts';
import { PointCloudError, type PointCloudErrorReason } from './errors.ts';
import { keyString } from './octree.ts';

/** What the main thread asks of a worker (chunk-worker.ts answers each with its result or an error's message). */
export type WorkerRequest =
  | { kind: 'count'; task: RangeTask }
  | { kind: 'distribute'; task: DistributeTask }
  | { kind: 'index'; task: ChunkTask }
  | { kind: 'encode'; format: 6 | 7; records: Uint8Array; count: number };

type WorkerResult = Tally | DistributeResult | ChunkResult | Uint8Array;

/** A worker's message: its answer to request `id`, or (with `progress`) how far it is. */
export interface WorkerAnswer {
  id: number;
  result?: WorkerResult;
  error?: string;
  /** The error was a PointCloudError of this reason (a bad input, not a bug). */
  reason?: PointCloudErrorReason;
  progress?: number;
}

export class WorkerPool {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly waiting: (() => void)[] = [];
  private nextId = 0;
  /** Word 0 is 1 once the conversion is aborted (shared with every worker). */
  private readonly abortFlag = new Int32Array(new SharedArrayBuffer(4));

  /** `oldGenerationMb`: each worker's old generation (V8's default, sized from the machine's memory, when absent). */
  constructor(size: number, oldGenerationMb?: number) {
    const resourceLimits = oldGenerationMb === undefined ? undefined : { maxOldGenerationSizeMb: oldGenerationMb };
    for (let i = 0; i < size; i++) {
      const w = new Worker(new URL('./chunk-worker.ts', import.meta.url), { workerData: { abortFlag: this.abortFlag }, resourceLimits });
      this.workers.push(w);
      this.idle.push(w);
    }
  }

  get size(): number {
    return this.workers.length;
  }

  /** Tallies a range of the input (range-passes.ts); `onProgress` gets the points done. */
  count(task: RangeTask, onProgress: (points: number) => void): Promise<Tally> {
    return this.run({ kind: 'count', task }, [], `counting points ${task.first}–${task.first + task.count - 1}`, onProgress) as Promise<Tally>;
  }

  /** Distributes a range of the input to its chunks' segment files (range-passes.ts); `onProgress` gets the points done. */
  distribute(task: DistributeTask, onProgress: (points: number) => void): Promise<DistributeResult> {
    const what = `distributing points ${task.first}–${task.first + task.count - 1}`;
    return this.run({ kind: 'distribute', task }, [], what, onProgress) as Promise<DistributeResult>;
  }

  /** Builds a chunk's subtree and encodes its nodes (chunk-indexer.ts). */
  index(task: ChunkTask): Promise<ChunkResult> {
    return this.run({ kind: 'index', task }, [], `indexing chunk ${keyString(task.key)}`) as Promise<ChunkResult>;
  }

  /** LAZ-encodes `count` records as one chunk. The records' buffer moves to the worker: the caller must not use it after. */
  encode(format: 6 | 7, records: Uint8Array, count: number): Promise<Uint8Array> {
    return this.run({ kind: 'encode', format, records, count }, [records.buffer as ArrayBuffer], `encoding a node of ${count} points`) as Promise<Uint8Array>;
  }

  /** Tells every worker to stop at its next batch (its request then fails). */
  abort(): void {
    Atomics.store(this.abortFlag, 0, 1);
  }

  private async run(request: WorkerRequest, transfer: ArrayBuffer[], what: string, onProgress?: (n: number) => void): Promise<WorkerResult> {
    while (!this.idle.length) await new Promise<void>((resolve) => this.waiting.push(resolve));
    const worker = this.idle.pop()!;
    const id = this.nextId++;
    try {
      return await new Promise<WorkerResult>((resolve, reject) => {
        const onMessage = (m: WorkerAnswer) => {
          if (m.id !== id) return;
          if (m.progress !== undefined) {
            onProgress?.(m.progress);
            return;
          }
          cleanup();
          if (m.error === undefined) resolve(m.result!);
          // A bad input stays a PointCloudError (its reason names the failure), whichever thread found it.
          else if (m.reason) reject(new PointCloudError(m.reason, m.error));
          else reject(new Error(`${what}: ${m.error}`));
        };
        const onError = (e: Error) => {
          cleanup();
          reject(e);
        };
        const onExit = (code: number) => {
          cleanup();
          reject(new Error(`a conversion worker exited (${code})`));
        };
        const cleanup = () => {
          worker.off('message', onMessage);
          worker.off('error', onError);
          worker.off('exit', onExit);
        };
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.on('exit', onExit);
        worker.postMessage({ ...request, id }, transfer);
      });
    } finally {
      this.idle.push(worker);
      this.waiting.shift()?.();
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
