// The worker thread of the conversion: indexes the chunks the converter sends, one at a
// time, and answers each with its nodes (or the error's message).
import { parentPort } from 'node:worker_threads';
import { indexChunk, type ChunkTask } from './chunk-indexer.ts';

if (!parentPort) throw new Error('chunk-worker.ts runs as a worker thread');
const port = parentPort;
port.on('message', (task: ChunkTask & { id: number }) => {
  try {
    port.postMessage({ id: task.id, result: indexChunk(task) });
  } catch (e) {
    port.postMessage({ id: task.id, error: e instanceof Error ? e.message : String(e) });
  }
});
