// Raw HTTP/1.1 exchanges over a socket, for the tests of what Node's parser refuses
// (app.inject() skips it): bytes written as given (in pieces, to split a request over
// reads), the responses parsed from what the server wrote until it closed.
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The responses in what the server wrote (a refusal in a body may follow the answer to its head). */
export function responsesOf(text: string): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/')) {
    const end = rest.indexOf('\r\n\r\n');
    const head = end < 0 ? rest : rest.slice(0, end);
    const [statusLine = '', ...lines] = head.split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const after = end < 0 ? '' : rest.slice(end + 4);
    const status = Number(statusLine.split(' ')[1]);
    // An interim response (100 Continue) has no body; the final one follows.
    const length = status < 200 ? 0 : headers['content-length'] !== undefined ? Number(headers['content-length']) : after.length;
    if (status >= 200) out.push({ status, headers, body: after.slice(0, length) });
    rest = after.slice(length);
  }
  return out;
}

/**
 * Writes each piece (latin1) in its own write, `gapMs` apart (so each arrives in a read of
 * its own), and answers the responses once the server has closed the connection (or
 * `closeAfterMs` after the last write, for a connection kept alive).
 */
export async function exchange(port: number, pieces: (string | Buffer)[], opts: { gapMs?: number; closeAfterMs?: number } = {}): Promise<RawResponse[]> {
  const socket = net.connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('data', (d) => chunks.push(d));
  socket.on('error', () => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  for (const [i, piece] of pieces.entries()) {
    if (socket.destroyed) break;
    if (i > 0) await sleep(opts.gapMs ?? 30);
    socket.write(typeof piece === 'string' ? Buffer.from(piece, 'latin1') : piece);
  }
  const timer = setTimeout(() => socket.destroy(), opts.closeAfterMs ?? 2_000);
  await closed;
  clearTimeout(timer);
  return responsesOf(Buffer.concat(chunks).toString('latin1'));
}
