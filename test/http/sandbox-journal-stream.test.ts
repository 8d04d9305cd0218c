// GET /_operator/journal/stream (docs/sandbox.md "Following the journal"): the operator token
// (401), a journal (404 with JOURNAL_SIZE=0), text/event-stream with one event per new
// entry matching the journal's filters (id: its seq), a catch-up from `after` or
// Last-Event-ID, heartbeats, a slow reader dropped with a final event once its queue is
// full, and every stream ended with a final event when the server closes (no hanging close).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { testApp, BASIC_SEED, OPERATOR_TOKEN, type TestApp } from '../support/app.ts';
import { STREAM_QUEUE_MAX } from '../../src/modules/sandbox/http/journal-stream.ts';

const OP = { authorization: `Bearer ${OPERATOR_TOKEN}` };
let t: TestApp;
let base: string;
let closed = false;

before(async () => {
  t = await testApp();
  await t.seed(BASIC_SEED);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
after(async () => {
  if (!closed) await t.close();
});

interface SseEvent { event: string; id?: string; data?: any; comment?: string }

/** A real client of the stream: its events as they come, and a wait for one that passes a test. */
async function open(query = '', headers: Record<string, string> = {}) {
  const ctl = new AbortController();
  const res = await fetch(`${base}/_operator/journal/stream${query}`, { headers: { ...OP, ...headers }, signal: ctl.signal });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type')!, /^text\/event-stream/);
  const events: SseEvent[] = [];
  let wake = () => {};
  let ended = false;
  const reading = (async () => {
    const decoder = new TextDecoder();
    let text = '';
    try {
      for await (const chunk of res.body!) {
        text += decoder.decode(chunk, { stream: true });
        let cut;
        while ((cut = text.indexOf('\n\n')) >= 0) {
          const block = text.slice(0, cut);
          text = text.slice(cut + 2);
          const e: SseEvent = { event: 'message' };
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) e.comment = line.slice(1).trim();
            else if (line.startsWith('event: ')) e.event = line.slice(7);
            else if (line.startsWith('id: ')) e.id = line.slice(4);
            else if (line.startsWith('data: ')) e.data = JSON.parse(line.slice(6));
          }
          if (e.comment !== undefined) e.event = 'comment';
          events.push(e);
          wake();
        }
      }
    } catch {
      // aborted by the test
    }
    ended = true;
    wake();
  })();
  const until = async (test: (events: SseEvent[]) => boolean, what: string, ms = 15_000) => {
    const deadline = Date.now() + ms;
    while (!test(events)) {
      if (ended || Date.now() > deadline) assert.fail(`${what}: ${JSON.stringify(events)}`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 200);
      });
    }
  };
  return { events, until, close: () => ctl.abort(), ended: () => ended, reading };
}

const isLogged = (token?: string) => fetch(`${base}/api/isLogged`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
const entries = (events: SseEvent[]) => events.filter((e) => e.event === 'message');

test('the stream needs the operator token (401) and a journal (404 with JOURNAL_SIZE=0)', async () => {
  assert.equal((await fetch(`${base}/_operator/journal/stream`)).status, 401);
  const none = await testApp({ JOURNAL_SIZE: '0' });
  try {
    const res = await none.app.inject({ method: 'GET', url: '/_operator/journal/stream', headers: OP });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().errorCode, 'route-not-found');
    const bad = await none.app.inject({ method: 'GET', url: '/_operator/journal/stream?heartbeat=0', headers: OP });
    assert.equal(bad.statusCode, 400);
  } finally {
    await none.close();
  }
});

test('one event per new entry matching the filters, id its seq, after a ready event', async () => {
  const s = await open('?status=4xx');
  await s.until((e) => e.some((x) => x.event === 'ready'), 'ready');
  const { last } = s.events.find((x) => x.event === 'ready')!.data;
  assert.equal((await isLogged()).status, 401); // 4xx: streamed
  const olivia = (await t.tokens('olivia@acme.test')).access_token;
  assert.equal((await isLogged(olivia)).status, 200); // 200: filtered out
  assert.equal((await isLogged('not-a-token')).status, 401);
  await s.until((e) => entries(e).length >= 2, 'two refusals');
  const got = entries(s.events);
  assert.deepEqual(got.map((e) => e.data.status), [401, 401]);
  assert.ok(got.every((e) => e.id === String(e.data.seq) && e.data.seq > last && e.data.path === '/api/isLogged'));
  assert.equal(got[0]!.data.refusal.rule, 'authentication');
  s.close();
});

test('after (or Last-Event-ID) replays the retained entries after it first, then ready; heartbeats keep the stream alive', async () => {
  const first = await open('?path=/api/isLogged');
  await first.until((e) => e.some((x) => x.event === 'ready'), 'ready');
  await isLogged();
  await first.until((e) => entries(e).length === 1, 'an entry');
  const seen = Number(entries(first.events)[0]!.id);
  first.close();
  await isLogged();
  await isLogged();
  const again = await open('?path=/api/isLogged&heartbeat=1', { 'last-event-id': String(seen) });
  await again.until((e) => e.some((x) => x.event === 'ready'), 'ready');
  const before = again.events.slice(0, again.events.findIndex((x) => x.event === 'ready'));
  assert.equal(entries(before).length, 2, 'the two missed, before ready');
  assert.ok(entries(before).every((e) => Number(e.id) > seen));
  await again.until((e) => e.some((x) => x.comment === 'heartbeat'), 'a heartbeat', 10_000);
  again.close();
});

test(`a reader that does not read is dropped once ${STREAM_QUEUE_MAX} entries wait, with a final dropped event`, async () => {
  const text = await new Promise<string>((resolve, reject) => {
    http.get(`${base}/_operator/journal/stream?path=/synthetic`, { headers: OP }, (res) => {
      res.pause(); // reads nothing while the entries come
      let body = '';
      res.setEncoding('utf8');
      res.on('end', () => resolve(body));
      setTimeout(() => {
        // Every entry at once: the socket takes a few, the queue the next ones, then the drop.
        for (let i = 0; i < STREAM_QUEUE_MAX * 3; i++) {
          t.core.journal!.record({
            at: new Date().toISOString(), method: 'GET', path: '/synthetic', operationId: null, surface: 'other', user: null,
            status: 200, durationMs: 1, errorCode: null, detail: 'x'.repeat(2000), refusal: null, fault: null,
          });
        }
        res.on('data', (c: string) => (body += c));
        res.resume();
      }, 300);
    }).on('error', reject);
  });
  const blocks = text.split('\n\n').filter(Boolean);
  const last = blocks.at(-1)!;
  assert.match(last, /^event: dropped\ndata: /, last.slice(0, 200));
  const dropped = JSON.parse(last.slice(last.indexOf('data: ') + 6));
  const delivered = blocks.filter((b) => b.startsWith('id: '));
  assert.ok(delivered.length < STREAM_QUEUE_MAX * 3, `dropped before the end (${delivered.length})`);
  assert.equal(dropped.reason, 'slow-reader');
  assert.equal(dropped.last, Number(delivered.at(-1)!.slice(4, delivered.at(-1)!.indexOf('\n'))), 'the last seq delivered: reconnect after it');
});

test('closing the server ends every open stream with a closed event, without waiting', async () => {
  const s = await open();
  await s.until((e) => e.some((x) => x.event === 'ready'), 'ready');
  const started = Date.now();
  await t.close();
  closed = true;
  assert.ok(Date.now() - started < 10_000, 'the close did not wait on the stream');
  await s.reading;
  assert.equal(s.events.at(-1)!.event, 'closed');
  assert.equal(s.events.at(-1)!.data.reason, 'server-closing');
});
