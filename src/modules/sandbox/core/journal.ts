// The request journal (docs/sandbox.md "The request journal"): the last N requests of this
// node (JOURNAL_SIZE, a ring: memory bounded whatever the traffic), each with what an
// integrator needs to see why it was answered so: method, path, operationId, caller,
// status, duration, the injected fault, and for every refusal its errorCode and the rule
// that refused it (the schema path and what it expects, the permission missing and the
// roles that grant it, the limit and its Retry-After). Nothing secret is kept: the path has
// no query string (codes, states, signed URLs' signatures) and secret path segments are
// redacted by the caller (the HTTP layer's loggedPath); no header and no body is kept.

/** Why a request was refused, as precisely as the failure says. */
export type Refusal =
  | { rule: 'schema'; field?: string; expected?: string }
  | { rule: 'permission'; requiredPermissions?: unknown; grantedBy?: unknown }
  | { rule: 'limit'; retryAfterSeconds?: number; values?: Record<string, unknown> }
  | { rule: 'authentication' }
  | { rule: 'injected-fault'; ruleId: string }
  | { rule: 'other'; values?: Record<string, unknown> };

export interface JournalEntry {
  /** Increasing from 1 on this node: `after` pages and waits on it. */
  seq: number;
  at: string;
  method: string;
  /** No query string; secret segments redacted. */
  path: string;
  operationId: string | null;
  surface: 'api2' | 'api1' | 'oauth' | 'other';
  /** The signed-in user's id, when there was one. */
  user: string | null;
  status: number;
  durationMs: number;
  errorCode: string | null;
  /** The failure's message, as the caller read it. */
  detail: string | null;
  refusal: Refusal | null;
  /** The injected fault: its rule, its kind, and a delay's milliseconds (drawn or fixed). */
  fault: { ruleId: string; kind: string; delayMs?: number } | null;
}

export interface JournalQuery {
  user?: string;
  /** An exact status (403) or a class (`4xx`). */
  status?: string;
  operationId?: string;
  method?: string;
  /** Paths starting with this. */
  pathPrefix?: string;
  errorCode?: string;
  /** Entries after this seq (a follower's cursor). */
  after?: number;
  /** Entries at or after this instant. */
  since?: string;
  /** At most this many, the newest (default 100, at most 1,000). */
  limit?: number;
  /** Wait up to this many seconds for a first matching entry (long poll; at most 30). */
  waitSeconds?: number;
}

export interface Journal {
  readonly size: number;
  record(e: Omit<JournalEntry, 'seq'>): void;
  /** Matching entries, oldest first, and the cursor to follow with. */
  query(q: JournalQuery): Promise<{ entries: JournalEntry[]; last: number }>;
  /**
   * Follows the journal: `onEntry` is called with each entry recorded from now on that
   * matches `q` (its filters; `limit` and `waitSeconds` do not apply), until the returned
   * function is called. With `q.after`, the retained entries after it come first (at most
   * 1,000: a reconnecting follower's catch-up). `last` is the cursor when it began.
   */
  subscribe(q: JournalQuery, onEntry: (e: JournalEntry) => void): { last: number; unsubscribe: () => void };
  clear(): void;
}

/** The refusal a failure's errorCode and values describe (docs/sandbox.md lists them). */
export function refusalOf(status: number, code: string, values: Record<string, unknown> | undefined): Refusal | null {
  if (status < 400) return null;
  // A status or refuse-refresh fault names its rule (a throttle is a limit: its Retry-After).
  if (typeof values?.ruleId === 'string') return { rule: 'injected-fault', ruleId: values.ruleId };
  if (status === 401) return { rule: 'authentication' };
  if (status === 403) return { rule: 'permission', requiredPermissions: values?.requiredPermissions, grantedBy: values?.grantedBy };
  if (status === 429) {
    const retry = Number(values?.retryAfter);
    return { rule: 'limit', ...(Number.isFinite(retry) ? { retryAfterSeconds: retry } : {}), ...(values ? { values } : {}) };
  }
  if (code === 'invalid-input' && typeof values?.field === 'string') {
    return { rule: 'schema', field: values.field, ...(typeof values.reason === 'string' ? { expected: values.reason } : {}) };
  }
  return { rule: 'other', ...(values ? { values } : {}) };
}

function matcher(q: JournalQuery): (e: JournalEntry) => boolean {
  const statusClass = q.status && /^[1-5]xx$/i.test(q.status) ? Number(q.status[0]) : null;
  const status = q.status && statusClass === null ? Number(q.status) : null;
  const since = q.since ? Date.parse(q.since) : null;
  return (e) =>
    (q.after === undefined || e.seq > q.after)
    && (q.user === undefined || e.user === q.user)
    && (statusClass === null || Math.floor(e.status / 100) === statusClass)
    && (status === null || e.status === status)
    && (q.operationId === undefined || e.operationId === q.operationId)
    && (q.method === undefined || e.method === q.method.toUpperCase())
    && (q.pathPrefix === undefined || e.path.startsWith(q.pathPrefix))
    && (q.errorCode === undefined || e.errorCode === q.errorCode)
    && (since === null || Date.parse(e.at) >= since);
}

export function createJournal(opts: { size: number }): Journal {
  const ring: (JournalEntry | undefined)[] = new Array(opts.size);
  let seq = 0;
  /** The seq of the last entry a clear dropped: the cursor keeps increasing across clears. */
  let floor = 0;
  const waiters = new Set<() => void>();
  const followers = new Set<(e: JournalEntry) => void>();
  const select = (q: JournalQuery) => {
    const keep = matcher(q);
    const limit = Math.min(Math.max(q.limit ?? 100, 1), 1000);
    const out: JournalEntry[] = [];
    // Newest first, then reversed: the newest `limit` matching, oldest first.
    for (let i = 0; i < Math.min(seq - floor, opts.size) && out.length < limit; i++) {
      const e = ring[(seq - 1 - i) % opts.size]!;
      if (q.after !== undefined && e.seq <= q.after) break;
      if (keep(e)) out.push(e);
    }
    return out.reverse();
  };
  return {
    size: opts.size,
    record(e) {
      if (opts.size === 0) return;
      seq++;
      const entry = { seq, ...e };
      ring[(seq - 1) % opts.size] = entry;
      for (const wake of waiters) wake();
      for (const follow of followers) follow(entry);
    },
    async query(q) {
      let entries = select(q);
      const wait = Math.min(Math.max(q.waitSeconds ?? 0, 0), 30);
      if (entries.length === 0 && wait > 0) {
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          };
          const check = () => {
            if (select(q).length > 0) done();
          };
          const timer = setTimeout(done, wait * 1000);
          waiters.add(check);
        });
        entries = select(q);
      }
      return { entries, last: seq };
    },
    subscribe(q, onEntry) {
      const last = seq;
      const caughtUp = q.after === undefined ? [] : select({ ...q, limit: 1000 });
      const keep = matcher({ ...q, after: undefined });
      const follow = (e: JournalEntry) => {
        if (keep(e)) onEntry(e);
      };
      for (const e of caughtUp) onEntry(e);
      followers.add(follow);
      return { last, unsubscribe: () => followers.delete(follow) };
    },
    clear() {
      ring.fill(undefined);
      floor = seq;
    },
  };
}
