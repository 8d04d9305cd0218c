// GET /_operator/journal/stream (docs/sandbox.md "Following the journal"): the request
// journal as Server-Sent Events. With `after` (or Last-Event-ID), the retained entries
// after it first; then one `ready` event (the cursor it began at), then one
// unnamed event per new matching entry (`id:` its seq, `data:` the entry as JSON; an
// EventSource's onmessage), a comment line every `heartbeatSeconds`. A reader slower than
// the entries: while the socket does not take more, entries wait in a queue of at most
// STREAM_QUEUE_MAX; past it the reader gets a final `dropped` event (the seq to reconnect
// after) and the stream ends, so memory stays bounded per subscriber. Server close (and the
// drain before it) ends every stream with a final `closed` event: shutdown never waits on one.
import type { FastifyReply } from 'fastify';
import type { Journal, JournalEntry, JournalQuery } from '../core/journal.ts';

/** Entries a subscriber may have waiting for its socket before it is dropped. */
export const STREAM_QUEUE_MAX = 1000;
export const HEARTBEAT_SECONDS_DEFAULT = 15;

/** The node's open journal streams, ended when the app closes. */
export type OpenStreams = Set<(reason: string) => void>;

const event = (name: string | null, data: unknown, id?: number) =>
  `${name ? `event: ${name}\n` : ''}${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`;

export function streamJournal(
  reply: FastifyReply, journal: Journal, q: JournalQuery,
  opts: { heartbeatSeconds: number; open: OpenStreams; queueMax?: number },
): void {
  const res = reply.raw;
  const queueMax = opts.queueMax ?? STREAM_QUEUE_MAX;
  reply.hijack();
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no', // a proxy in front must not hold the events back
  });
  /** Entries (and the ready event, after a catch-up) waiting for the socket. */
  const queue: (JournalEntry | { ready: number })[] = [];
  let blocked = false;
  let over = false;
  let sent = q.after ?? 0;
  let unsubscribe = () => {};
  const heartbeat = setInterval(() => {
    if (!blocked) res.write(': heartbeat\n\n');
  }, opts.heartbeatSeconds * 1000);

  const end = (final: string | null) => {
    if (over) return;
    over = true;
    unsubscribe();
    clearInterval(heartbeat);
    opts.open.delete(close);
    queue.length = 0;
    if (final) res.end(final);
    else res.end();
  };
  const close = (reason: string) => end(event('closed', { reason, last: sent }));
  const flush = () => {
    blocked = false;
    while (queue.length && !blocked && !over) {
      const e = queue.shift()!;
      if ('ready' in e) {
        blocked = !res.write(event('ready', { last: e.ready }));
        continue;
      }
      sent = e.seq;
      blocked = !res.write(event(null, e, e.seq));
    }
  };
  const onEntry = (e: JournalEntry) => {
    if (over) return;
    if (!blocked) {
      sent = e.seq;
      blocked = !res.write(event(null, e, e.seq));
      return;
    }
    if (queue.length >= queueMax) {
      // res.end writes past the socket's backpressure: one small event, then the stream ends.
      end(event('dropped', { reason: 'slow-reader', last: sent, queued: queue.length }));
      return;
    }
    queue.push(e);
  };

  res.on('drain', flush);
  res.once('close', () => end(null)); // the reader went away
  res.write(': scanbase journal\n\n');
  const followed = journal.subscribe(q, onEntry);
  unsubscribe = followed.unsubscribe;
  if (over) return unsubscribe(); // dropped while catching up
  if (blocked) queue.push({ ready: followed.last });
  else blocked = !res.write(event('ready', { last: followed.last }));
  opts.open.add(close);
}
