// The SDK's side of the upload bench, in its own process so its memory is its own: the
// PUT of a file to a signed URL exactly as uploadFiles sends it (putFile: node:http,
// streamed from disk with backpressure). Prints "ready", waits for a line on standard
// input (the parent samples the baseline RSS meanwhile), uploads, prints {status, seconds}.
import { putFile } from '../packages/sdk/src/node/upload.ts';

const [url, headersJson, file] = process.argv.slice(2) as [string, string, string];
process.stdout.write('ready\n');
await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
const t0 = process.hrtime.bigint();
const res = await putFile(url, file, JSON.parse(headersJson) as Record<string, string>, () => {});
await res.arrayBuffer();
process.stdout.write(`${JSON.stringify({ status: res.status, seconds: Number(process.hrtime.bigint() - t0) / 1e9 })}\n`);
process.stdin.destroy();
