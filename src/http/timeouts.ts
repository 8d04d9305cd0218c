// Raw answers written on the socket itself, for requests that never reach Fastify.
import http from 'node:http';

/** A complete problem+json answer written on the socket itself, closing the connection. */
export function rawProblem(status: number, detail: string, errorCode: string, headers: Record<string, string>): string {
  const title = http.STATUS_CODES[status]!;
  const body = JSON.stringify({ type: 'about:blank', status, title, detail, errorCode });
  return (
    `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('') +
    `Connection: close\r\n\r\n${body}`
  );
}
