// Runs one conversion in its own process (the resume test kills it with SIGKILL): argv[2] is
// a JSON of ConvertOptions; every progress report is printed as a JSON line. argv[3], when
// given, is a number of indexed chunks: once that many checkpoints are written the child
// prints {"phase":"held"} and blocks its main thread (which dispatches the work and writes
// the checkpoints) until it is killed. The kill then lands mid-indexing however fast the
// conversion runs: progress reports come at most every 200 ms, and a fast machine indexed
// the whole input between two of them.
import fs from 'node:fs';
import { convertToCopc, type ConvertOptions } from '../../../src/pointclouds/index.ts';

const options = JSON.parse(process.argv[2]!) as ConvertOptions;
const holdAfter = process.argv[3] === undefined ? undefined : Number(process.argv[3]);
const workDir = `${options.output}.work`;
const watch =
  holdAfter === undefined
    ? undefined
    : setInterval(() => {
        const done = fs.existsSync(workDir) ? fs.readdirSync(workDir).filter((f) => f.endsWith('.done.json')).length : 0;
        if (done < holdAfter) return;
        // A pipe's writes are synchronous on Linux: the line is out before the wait.
        console.log(JSON.stringify({ phase: 'held', checkpoints: done }));
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
      }, 2);
await convertToCopc({ ...options, onProgress: (p) => console.log(JSON.stringify(p)) });
clearInterval(watch);
console.log(JSON.stringify({ phase: 'exit' }));
