// The baseline: a bare node:http server answering a small JSON body, run in its own
// process so that it never shares an event loop with the load generator.
import http from 'node:http';

const body = JSON.stringify({ success: true });
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  // The parent reads the port from this line.
  console.log(`listening ${typeof address === 'object' && address ? address.port : ''}`);
});

const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
