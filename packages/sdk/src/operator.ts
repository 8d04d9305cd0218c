// The operator surface of a Scanbase deployment (docs/operator-api.md), ours and not the
// vendor's: seed, reset, tokens, the sandbox clock (forward and back), snapshots, fault
// rules and the request journal. Every call carries the operator token; every answer >= 400
// throws a ScanbaseError (its errorCode and errorValues: a bad fault rule names its field).
import { errorFromResponse } from './errors.ts';

export interface OperatorClientOptions {
  /** The deployment's PUBLIC_URL. */
  baseUrl: string;
  /** Its OPERATOR_TOKEN. */
  operatorToken: string;
  fetch?: typeof fetch;
}

export interface SnapshotInfo {
  name: string;
  createdAt: string;
  engine: 'pglite' | 'postgres';
  migrations: string[];
  tables: { name: string; rows: number }[];
  blobs: { count: number; bytes: number };
  clockOffsetSeconds: number;
  signingKeys: boolean;
  bytes: number;
}

export type FaultEffect =
  | { kind: 'status'; status?: 500 | 502 | 503 | 504 }
  | { kind: 'delay'; ms: number }
  /** A delay drawn per request from the rule's seed, clamped to 0..120,000 ms. */
  | { kind: 'delay'; distribution: { type: 'uniform'; minMs: number; maxMs: number } | { type: 'normal'; meanMs: number; stdDevMs: number } }
  | { kind: 'drop' }
  | { kind: 'throttle'; retryAfterSeconds?: number }
  | { kind: 'truncate' }
  /** The real answer, sent at this rate. */
  | { kind: 'slow-body'; bytesPerSecond: number }
  /** The request's body read at this rate (a slow upload). */
  | { kind: 'slow-request-body'; bytesPerSecond: number }
  /** POST /oauth/token with grant_type=refresh_token answers 400 invalid_grant. */
  | { kind: 'refuse-refresh' };

export interface FaultRuleInput {
  name?: string;
  match?: { method?: string; path?: string; operationId?: string; user?: string; account?: string; surface?: 'api2' | 'api1' | 'oauth' | 'other'; client?: string };
  effect: FaultEffect;
  probability?: number;
  seed?: number;
  count?: number;
  /** ISO instants on the service's clock; outside them the rule injects nothing. */
  window?: { from?: string; until?: string };
}

export interface FaultRule extends FaultRuleInput {
  id: string;
  probability: number;
  seed: number;
  matched: number;
  injected: number;
}

export interface JournalEntry {
  seq: number;
  at: string;
  method: string;
  path: string;
  operationId: string | null;
  surface: 'api2' | 'api1' | 'oauth' | 'other';
  user: string | null;
  status: number;
  durationMs: number;
  errorCode: string | null;
  detail: string | null;
  refusal: Record<string, unknown> | null;
  fault: { ruleId: string; kind: string; delayMs?: number } | null;
}

export interface JournalFilter {
  user?: string;
  /** `403` or `4xx`. */
  status?: string;
  operationId?: string;
  method?: string;
  /** Paths starting with this. */
  path?: string;
  errorCode?: string;
  after?: number;
  since?: string;
  limit?: number;
  /** Wait up to this many seconds (at most 30) for a first entry. */
  wait?: number;
}

export interface ClockState {
  now: string;
  offsetSeconds: number;
}

export interface OperatorClient {
  readonly baseUrl: string;
  /** A call of the operator surface: JSON in and out (paths relative to /_operator). */
  call<T>(method: string, path: string, body?: unknown): Promise<T>;
  seed(doc: unknown): Promise<unknown>;
  reset(): Promise<unknown>;
  tokens(email: string): Promise<{ access_token: string; refresh_token: string; user_id: string; expires_in: number }>;
  clock: {
    get(): Promise<ClockState>;
    /** Forward (positive) or back (negative, SANDBOX only). */
    advance(seconds: number): Promise<ClockState>;
    setTo(instant: Date | string): Promise<ClockState>;
  };
  snapshots: {
    list(): Promise<SnapshotInfo[]>;
    save(name: string, opts?: { signingKeys?: boolean }): Promise<SnapshotInfo>;
    describe(name: string): Promise<SnapshotInfo>;
    remove(name: string): Promise<{ deleted: string }>;
    /** The portable file, as a stream of bytes. */
    download(name: string): Promise<ReadableStream<Uint8Array>>;
    /** Keeps a portable file under `name` (verified whole by the service). */
    upload(name: string, file: BodyInit): Promise<SnapshotInfo>;
    /** Restores a named snapshot, or (with `file`) keeps the file under `name` and restores it. */
    restore(name: string, file?: BodyInit): Promise<SnapshotInfo>;
  };
  faults: {
    list(): Promise<FaultRule[]>;
    add(rule: FaultRuleInput): Promise<FaultRule>;
    replace(rules: FaultRuleInput[]): Promise<FaultRule[]>;
    remove(id: string): Promise<{ deleted: string }>;
    clear(): Promise<{ deleted: number }>;
  };
  journal: {
    query(filter?: JournalFilter): Promise<{ entries: JournalEntry[]; last: number }>;
    /**
     * Calls `onEntry` for each new entry matching `filter` (after `filter.after` when given),
     * until `signal` aborts or the service closes: GET /_operator/journal/stream (SSE). When
     * the service drops a slow follower it reconnects after the last entry it was given.
     */
    follow(filter: JournalFilter, onEntry: (e: JournalEntry) => void, signal?: AbortSignal): Promise<void>;
    /** Waits up to `seconds` for the first entry after `after` matching `filter` (null when none came). */
    waitFor(filter: JournalFilter & { after: number }, seconds: number): Promise<JournalEntry | null>;
    clear(): Promise<unknown>;
  };
}

const query = (f: JournalFilter = {}) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
};

const enc = encodeURIComponent;

/** The events of a text/event-stream body (comments skipped; `data` lines joined). */
async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; id?: string; data: string }> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true }).replace(/\r\n?/g, '\n');
    let cut;
    while ((cut = text.indexOf('\n\n')) >= 0) {
      const block = text.slice(0, cut);
      text = text.slice(cut + 2);
      let event = 'message';
      let id: string | undefined;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'id') id = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length) yield { event, ...(id === undefined ? {} : { id }), data: data.join('\n') };
    }
  }
}

export function createOperatorClient(o: OperatorClientOptions): OperatorClient {
  const baseUrl = o.baseUrl.replace(/\/+$/, '');
  const fetchFn = o.fetch ?? globalThis.fetch;
  const auth = { authorization: `Bearer ${o.operatorToken}` };

  async function send(method: string, path: string, init: { json?: unknown; body?: BodyInit; signal?: AbortSignal } = {}): Promise<Response> {
    const headers: Record<string, string> = { ...auth };
    let body: BodyInit | undefined;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.body !== undefined) {
      headers['content-type'] = 'application/octet-stream';
      body = init.body;
    }
    const res = await fetchFn(`${baseUrl}/_operator${path}`, {
      method, headers, body, signal: init.signal,
      // A stream body (a snapshot file) is sent as it is read.
      ...(body && typeof body === 'object' && 'getReader' in body ? { duplex: 'half' } : {}),
    } as RequestInit);
    if (res.status >= 400) throw await errorFromResponse(res, method);
    return res;
  }
  const call = async <T>(method: string, path: string, json?: unknown): Promise<T> => (await send(method, path, { json })).json() as Promise<T>;

  const journal: OperatorClient['journal'] = {
    query: (f) => call('GET', `/journal${query(f)}`),
    async follow(filter, onEntry, signal) {
      const { limit: _limit, wait: _wait, ...filters } = filter;
      let after = filters.after;
      while (!signal?.aborted) {
        let ending: string | null = null;
        try {
          const res = await send('GET', `/journal/stream${query({ ...filters, after })}`, { signal });
          for await (const ev of serverSentEvents(res.body!)) {
            if (ev.event === 'message') {
              const entry = JSON.parse(ev.data) as JournalEntry;
              after = entry.seq;
              onEntry(entry);
            } else if (ev.event === 'ready') {
              after ??= (JSON.parse(ev.data) as { last: number }).last;
            } else if (ev.event === 'dropped' || ev.event === 'closed') {
              ending = ev.event;
            }
          }
        } catch (e) {
          if (signal?.aborted) return;
          throw e;
        }
        if (ending === 'closed') return; // the service is shutting down
        // Dropped (a slow follower) or cut: again, after the last entry given.
      }
    },
    async waitFor(filter, seconds) {
      const deadline = Date.now() + seconds * 1000;
      let after = filter.after;
      while (Date.now() < deadline) {
        const wait = Math.min(30, Math.max(0.1, (deadline - Date.now()) / 1000));
        const page = await journal.query({ ...filter, after, wait, limit: 1 });
        if (page.entries[0]) return page.entries[0];
        after = Math.max(after, page.last);
      }
      return null;
    },
    clear: () => call('DELETE', '/journal'),
  };

  return {
    baseUrl,
    call,
    seed: (doc) => call('POST', '/seed', doc),
    reset: () => call('POST', '/reset'),
    tokens: (email) => call('POST', '/tokens', { email }),
    clock: {
      get: () => call('GET', '/clock'),
      advance: (seconds) => call('POST', '/clock', { advanceSeconds: seconds }),
      setTo: (instant) => call('POST', '/clock', { to: typeof instant === 'string' ? instant : instant.toISOString() }),
    },
    snapshots: {
      list: async () => (await call<{ snapshots: SnapshotInfo[] }>('GET', '/snapshots')).snapshots,
      save: (name, opts = {}) => call('POST', '/snapshots', { name, ...(opts.signingKeys ? { signingKeys: true } : {}) }),
      describe: (name) => call('GET', `/snapshots/${enc(name)}`),
      remove: (name) => call('DELETE', `/snapshots/${enc(name)}`),
      async download(name) {
        const res = await send('GET', `/snapshots/${enc(name)}/file`);
        return res.body!;
      },
      upload: async (name, file) => (await send('PUT', `/snapshots/${enc(name)}/file`, { body: file })).json() as Promise<SnapshotInfo>,
      restore: async (name, file) =>
        (await send('POST', `/snapshots/${enc(name)}/restore`, file === undefined ? {} : { body: file })).json() as Promise<SnapshotInfo>,
    },
    faults: {
      list: async () => (await call<{ rules: FaultRule[] }>('GET', '/faults')).rules,
      add: (rule) => call('POST', '/faults', rule),
      replace: async (rules) => (await call<{ rules: FaultRule[] }>('PUT', '/faults', { rules })).rules,
      remove: (id) => call('DELETE', `/faults/${enc(id)}`),
      clear: () => call('DELETE', '/faults'),
    },
    journal,
  };
}
