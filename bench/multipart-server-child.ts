// The multipart bench's server: the test server of the multipart extension over the
// local-disk store (packages/sdk/test/support/multipart-server.ts) in a process of its own,
// so its RSS is measured apart from the client's. Prints its address, then serves until killed.
import { startMultipartServer } from '../packages/sdk/test/support/multipart-server.ts';

const server = await startMultipartServer();
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.on('SIGTERM', () => void server.stop().then(() => process.exit(0)));
