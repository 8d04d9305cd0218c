// Runs one conversion in its own process (the resume test kills it with SIGKILL): argv is
// a JSON of ConvertOptions; every progress report is printed as a JSON line.
import { convertToCopc } from '../../../src/pointclouds/index.ts';

const options = JSON.parse(process.argv[2]!);
await convertToCopc({ ...options, onProgress: (p) => console.log(JSON.stringify(p)) });
console.log(JSON.stringify({ phase: 'exit' }));
