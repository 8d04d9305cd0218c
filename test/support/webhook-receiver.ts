// A real HTTP receiver of webhook deliveries on a loopback port: it records every request
// (headers and raw body) and answers what the test sets (a status, or no answer at all).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';

export interface ReceivedDelivery {
  headers: Record<string, string>;
  body: string;
  /** The envelope, parsed. */
  json: { type: string; timestamp: string; data: Record<string, string> };
}

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedDelivery[];
  /** The status the next requests get; 'hang' holds them unanswered. */
  answer: number | 'hang';
  /** Milliseconds each answer waits. */
  delayMs: number;
  /** The most requests that were in progress at once. */
  maxInFlight: number;
  /** Runs (and is awaited) after a request is recorded and before it is answered. */
  beforeAnswer?: (delivery: ReceivedDelivery) => Promise<void>;
  /** The deliveries of `type` once `count` of them arrived (polls; fails after `timeoutMs`). */
  waitFor(type: string, count?: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(port = 0): Promise<WebhookReceiver> {
  const held: http.ServerResponse[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    port: 0,
    received: [],
    answer: 204,
    delayMs: 0,
    maxInFlight: 0,
    async waitFor(type, count = 1, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const got = receiver.received.filter((r) => r.json.type === type);
        if (got.length >= count) return got;
        if (Date.now() > deadline) assert.fail(`no ${count} ${type} deliveries within ${timeoutMs} ms (got ${got.length})`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  let inFlight = 0;
  const server = http.createServer((req, res) => {
    inFlight++;
    receiver.maxInFlight = Math.max(receiver.maxInFlight, inFlight);
    res.on('close', () => inFlight--);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const delivery: ReceivedDelivery = { headers: req.headers as Record<string, string>, body, json: JSON.parse(body) };
      receiver.received.push(delivery);
      const respond = () => {
        const answer = receiver.answer;
        if (answer === 'hang') held.push(res);
        else setTimeout(() => res.writeHead(answer).end(), receiver.delayMs);
      };
      if (!receiver.beforeAnswer) return respond();
      receiver.beforeAnswer(delivery).then(respond, (e: unknown) => {
        res.writeHead(500).end(String(e));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
  return receiver;
}

/** Verifies a delivery with the standardwebhooks library (throws when the signature or timestamp is wrong); answers the payload. */
export function verifyDelivery(secret: string, d: ReceivedDelivery): unknown {
  return new Webhook(secret).verify(d.body, {
    'webhook-id': d.headers['webhook-id']!,
    'webhook-timestamp': d.headers['webhook-timestamp']!,
    'webhook-signature': d.headers['webhook-signature']!,
  });
}
