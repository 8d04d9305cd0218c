// The operator page (`/console/operator`, issue 32 item 5): the sandbox tools of the operator
// surface for whoever runs the service, without an account session. The operator types the
// operator token; the page keeps it in its state (memory) only: never in storage or in an
// address, gone with the tab or with "Forget the token". Then: the request journal (newest
// first, followed with the long poll, filtered, each refusal with its rule), the fault rules
// (sandbox), the snapshots, and the clock (sandbox).
import { useEffect, useState } from 'preact/hooks';
import type { FaultEffect, FaultRule, FaultRuleInput, JournalEntry, JournalFilter, OperatorClient, SnapshotInfo } from '@scanbase/sdk';
import { opCall, operatorClient, tokenRefusal } from '../operator.ts';
import { formatDate, formatFullDate, formatSize } from '../format.ts';
import { Action, Empty, ErrorBox, Head, Icon, IconButton, Loading, LoadState, toast, useAction, useConfirm, useLoad } from '../ui.tsx';

/** Sandbox mode (fault rules and the clock exist only then): the flag the service puts in the page. */
const SANDBOX = document.querySelector('meta[name="scanbase-sandbox"]')?.getAttribute('content') === 'on';

export function OperatorScreen() {
  const [client, setClient] = useState<OperatorClient | null>(null);
  // Bumped after a restore: every panel loads again (the state under them changed).
  const [world, setWorld] = useState(0);
  return (
    <main id="main" class="page operator">
      <div class="page-head">
        <h1>Operator</h1>
        {client ? (
          <button type="button" class="secondary small" onClick={() => setClient(null)}>
            <Icon name="signOut" /> Forget the token
          </button>
        ) : null}
      </div>
      {client ? (
        <>
          <JournalPanel client={client} />
          {SANDBOX ? <FaultsPanel client={client} world={world} /> : null}
          <SnapshotsPanel client={client} world={world} onRestored={() => setWorld((n) => n + 1)} />
          {SANDBOX ? <ClockPanel client={client} world={world} /> : null}
          {SANDBOX ? null : <p class="muted">Fault rules and the clock exist only on a service started with SANDBOX=1.</p>}
        </>
      ) : (
        <TokenForm onAccepted={setClient} />
      )}
    </main>
  );
}

function TokenForm(props: { onAccepted: (c: OperatorClient) => void }) {
  const [token, setToken] = useState('');
  const [run, busy, error] = useAction();
  const refusal = tokenRefusal(error);
  return (
    <form
      class="narrow"
      onSubmit={(e) => {
        e.preventDefault();
        const c = operatorClient(token.trim());
        // The cheapest call that needs only the token (no SANDBOX): it proves the token.
        void run(() => opCall(c.snapshots.list())).then((ok) => ok && props.onAccepted(c));
      }}
    >
      <p>
        The service's sandbox tools: the request journal, fault rules, snapshots and the clock. They need the service's operator token (its{' '}
        <code>OPERATOR_TOKEN</code>), which this page keeps in memory only: reloading or closing the tab forgets it.
      </p>
      <label for="operator-token">Operator token</label>
      <input id="operator-token" type="password" autocomplete="off" required value={token} onInput={(e) => setToken(e.currentTarget.value)} aria-describedby={refusal ? 'operator-token-refused' : undefined} />
      {refusal ? (
        <p class="error" role="alert" id="operator-token-refused">
          <Icon name="alert" /> {refusal}
        </p>
      ) : (
        <ErrorBox error={error} />
      )}
      <Action label="Open the operator tools" type="submit" kind="primary" busy={busy} />
    </form>
  );
}

// ---- The journal ----

const STATUSES = ['', '2xx', '3xx', '4xx', '5xx', '400', '401', '403', '404', '409', '429', '503'];
/** Entries kept on the page (the newest). */
const SHOWN = 200;

type Filters = Pick<JournalFilter, 'status' | 'path' | 'operationId'>;

/** Loads the newest matching entries, then follows with the long poll until the filters change or following stops. */
function useJournal(client: OperatorClient, filters: Filters, following: boolean, attempt: number) {
  const [entries, setEntries] = useState<JournalEntry[] | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const stop = new AbortController();
    setError(null);
    void (async () => {
      const first = await opCall(client.journal.query({ ...filters, limit: 100 }));
      if (stop.signal.aborted) return;
      setEntries([...first.entries].reverse());
      if (!following) return;
      // The SDK's follow: long polls, the one under way aborted when the filters change.
      await opCall(
        client.journal.follow({ ...filters, after: first.entries.at(-1)?.seq ?? first.last }, (e) => setEntries((old) => [e, ...(old ?? [])].slice(0, SHOWN)), stop.signal),
      );
    })().catch((e: unknown) => {
      if (!stop.signal.aborted) setError(e);
    });
    return () => stop.abort();
  }, [client, filters, following, attempt]);
  return { entries, error };
}

/** Why a request was refused, in one line: the rule and what it names. */
export function refusalText(e: JournalEntry): string {
  const r = e.refusal;
  if (!r) return '';
  const { rule, ...rest } = r as { rule?: string } & Record<string, unknown>;
  const parts = Object.entries(rest)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  return `${rule ?? 'refused'}${parts.length ? ` (${parts.join('; ')})` : ''}`;
}

function JournalPanel(props: { client: OperatorClient }) {
  const [draft, setDraft] = useState<Filters>({ status: '', path: '', operationId: '' });
  const [filters, setFilters] = useState<Filters>({});
  const [following, setFollowing] = useState(true);
  const [attempt, setAttempt] = useState(0);
  const { entries, error } = useJournal(props.client, filters, following, attempt);
  return (
    <section aria-labelledby="journal-title">
      <div class="page-head">
        <h2 id="journal-title">Request journal</h2>
        <button type="button" class="secondary small" aria-pressed={following} onClick={() => setFollowing(!following)}>
          <Icon name={following ? 'show' : 'hide'} /> {following ? 'Following' : 'Paused'}
        </button>
      </div>
      <form
        class="row"
        aria-label="Journal filters"
        onSubmit={(e) => {
          e.preventDefault();
          setFilters({ status: draft.status || undefined, path: draft.path?.trim() || undefined, operationId: draft.operationId?.trim() || undefined });
        }}
      >
        <label for="journal-status">Status</label>
        <select id="journal-status" value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.currentTarget.value })}>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s || 'Any'}
            </option>
          ))}
        </select>
        <label for="journal-path">Path starts with</label>
        <input id="journal-path" placeholder="/api/2/" value={draft.path} onInput={(e) => setDraft({ ...draft, path: e.currentTarget.value })} />
        <label for="journal-operation">Operation</label>
        <input id="journal-operation" placeholder="isLogged" value={draft.operationId} onInput={(e) => setDraft({ ...draft, operationId: e.currentTarget.value })} />
        <button type="submit" class="secondary">
          Filter
        </button>
      </form>
      {error ? <ErrorBox error={error} onRetry={() => setAttempt((n) => n + 1)} /> : entries === undefined ? <Loading what="the journal" /> : null}
      {entries?.length === 0 ? <Empty>No request matches yet{following ? ': new ones appear here as they come' : ''}.</Empty> : null}
      {entries?.length ? (
        <div class="scroll-x" role="region" aria-label="Journal entries" tabIndex={0}>
          <table class="journal">
            <Head cols={['Time', 'Request', 'Operation', 'Status', 'Why']} />
            <tbody>
              {entries.map((e) => (
                <tr key={e.seq} class={e.status >= 400 || e.status === 0 ? 'refused' : undefined}>
                  <td class="nowrap" title={formatFullDate(e.at)}>
                    {new Date(e.at).toLocaleTimeString('en-GB')}
                  </td>
                  <td>
                    <code>{e.method}</code> {e.path}
                  </td>
                  <td>{e.operationId ?? ''}</td>
                  <td class="num">{e.status === 0 ? 'no answer' : e.status}</td>
                  <td>
                    {e.errorCode ? <code>{e.errorCode}</code> : null} {e.fault ? null : refusalText(e)}
                    {e.fault ? (
                      <span class="fault">
                        {' '}
                        fault {e.fault.kind} by rule <code>{e.fault.ruleId}</code>
                      </span>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

// ---- Fault rules ----

/** The kinds the form adds (the others, from the API or FAULTS_FILE, are listed). */
const KINDS = ['status', 'throttle', 'delay', 'drop', 'truncate'] as const;
type FormKind = (typeof KINDS)[number];
const METHODS = ['', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function effectText(e: FaultEffect): string {
  switch (e.kind) {
    case 'status':
      return `answer ${e.status ?? 503}`;
    case 'throttle':
      return `429, Retry-After ${e.retryAfterSeconds ?? 1} s`;
    case 'delay':
      if ('ms' in e) return `delay ${e.ms} ms`;
      return e.distribution.type === 'uniform'
        ? `delay ${e.distribution.minMs}–${e.distribution.maxMs} ms`
        : `delay ~${e.distribution.meanMs} ± ${e.distribution.stdDevMs} ms`;
    case 'drop':
      return 'drop the connection';
    case 'truncate':
      return 'cut the body';
    case 'slow-body':
      return `slow body, ${e.bytesPerSecond} bytes/s`;
    case 'slow-request-body':
      return `slow request body, read at ${e.bytesPerSecond} bytes/s`;
    case 'refuse-refresh':
      return 'refuse token refreshes';
  }
}

function matchText(m: FaultRuleInput['match']): string {
  const parts = Object.entries(m ?? {}).map(([k, v]) => `${k} ${v}`);
  return parts.length ? parts.join(', ') : 'every request';
}

function FaultsPanel(props: { client: OperatorClient; world: number }) {
  const rules = useLoad(() => opCall(props.client.faults.list()), `faults ${props.world}`);
  const [form, setForm] = useState({ name: '', method: '', path: '', operationId: '', kind: 'status' as FormKind, status: '503', ms: '1000', retryAfter: '1', probability: '1', count: '' });
  const [run, busy, error] = useAction();
  const [ask, confirmElement] = useConfirm();
  const set = (k: keyof typeof form) => (e: { currentTarget: { value: string } }) => setForm({ ...form, [k]: e.currentTarget.value });
  const ruleOf = (): FaultRuleInput => {
    const match: NonNullable<FaultRuleInput['match']> = {};
    if (form.method) match.method = form.method;
    if (form.path.trim()) match.path = form.path.trim();
    if (form.operationId.trim()) match.operationId = form.operationId.trim();
    const effect: FaultEffect =
      form.kind === 'status'
        ? { kind: 'status', status: Number(form.status) as 503 }
        : form.kind === 'delay'
          ? { kind: 'delay', ms: Number(form.ms) }
          : form.kind === 'throttle'
            ? { kind: 'throttle', retryAfterSeconds: Number(form.retryAfter) }
            : { kind: form.kind };
    return {
      ...(form.name.trim() ? { name: form.name.trim() } : {}),
      match,
      effect,
      probability: Number(form.probability),
      ...(form.count.trim() ? { count: Number(form.count) } : {}),
    };
  };
  return (
    <section aria-labelledby="faults-title">
      <div class="page-head">
        <h2 id="faults-title">Fault rules</h2>
        <IconButton icon="retry" label="Refresh the fault rules" onClick={rules.reload} />
      </div>
      <LoadState of={[rules]} what="the fault rules" />
      {rules.data?.length === 0 ? <Empty>No fault rule: every request runs normally.</Empty> : null}
      {rules.data?.length ? (
        <div class="scroll-x" role="region" aria-label="Fault rules" tabIndex={0}>
          <table>
            <Head cols={['Rule', 'Matches', 'Effect', 'Probability', 'Count', 'Matched', 'Injected', '']} />
            <tbody>
              {rules.data.map((r: FaultRule) => (
                <tr key={r.id}>
                  <td>{r.name ?? <code>{r.id}</code>}</td>
                  <td>{matchText(r.match)}</td>
                  <td>{effectText(r.effect)}</td>
                  <td class="num">{r.probability}</td>
                  <td class="num">{r.count ?? '∞'}</td>
                  <td class="num">{r.matched}</td>
                  <td class="num">{r.injected}</td>
                  <td class="row-actions">
                    <IconButton
                      icon="remove"
                      danger
                      label={`Delete rule ${r.name ?? r.id}`}
                      onClick={() =>
                        void ask({ title: 'Delete this fault rule?', body: `Requests matching ${matchText(r.match)} run normally again.`, action: 'Delete rule' }).then(
                          (ok) => ok && void run(() => opCall(props.client.faults.remove(r.id))).then((done) => done && (toast('Fault rule deleted'), rules.reload())),
                        )
                      }
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <form
        class="grid-form"
        aria-label="New fault rule"
        onSubmit={(e) => {
          e.preventDefault();
          void run(() => opCall(props.client.faults.add(ruleOf()))).then((ok) => {
            if (!ok) return;
            toast('Fault rule added');
            setForm({ ...form, name: '' });
            rules.reload();
          });
        }}
      >
        <h3 class="span">Add a rule</h3>
        <label for="fault-name">Name (optional)</label>
        <input id="fault-name" value={form.name} maxLength={200} onInput={set('name')} />
        <label for="fault-method">Method</label>
        <select id="fault-method" value={form.method} onChange={set('method')}>
          {METHODS.map((m) => (
            <option key={m} value={m}>
              {m || 'Any'}
            </option>
          ))}
        </select>
        <label for="fault-path">Path pattern</label>
        <input id="fault-path" placeholder="/api/2/accounts/*/projects" value={form.path} onInput={set('path')} />
        <label for="fault-operation">Operation</label>
        <input id="fault-operation" placeholder="getProjects" value={form.operationId} onInput={set('operationId')} />
        <label for="fault-kind">Effect</label>
        <select id="fault-kind" value={form.kind} onChange={set('kind')}>
          {KINDS.map((k) => (
            <option key={k} value={k}>
              {{ status: 'Error status', throttle: '429 with Retry-After', delay: 'Delay', drop: 'Drop the connection', truncate: 'Cut the body' }[k]}
            </option>
          ))}
        </select>
        {form.kind === 'status' ? (
          <>
            <label for="fault-status">Status</label>
            <select id="fault-status" value={form.status} onChange={set('status')}>
              {['500', '502', '503', '504'].map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </>
        ) : null}
        {form.kind === 'delay' ? (
          <>
            <label for="fault-ms">Delay (ms)</label>
            <input id="fault-ms" type="number" min={0} max={120000} required value={form.ms} onInput={set('ms')} />
          </>
        ) : null}
        {form.kind === 'throttle' ? (
          <>
            <label for="fault-retry">Retry-After (s)</label>
            <input id="fault-retry" type="number" min={0} required value={form.retryAfter} onInput={set('retryAfter')} />
          </>
        ) : null}
        <label for="fault-probability">Probability (0 to 1)</label>
        <input id="fault-probability" type="number" min={0} max={1} step="any" required value={form.probability} onInput={set('probability')} />
        <label for="fault-count">At most (times, optional)</label>
        <input id="fault-count" type="number" min={1} step={1} value={form.count} onInput={set('count')} />
        <div class="span">
          <Action label="Add rule" type="submit" kind="primary" busy={busy} icon="add" />
        </div>
      </form>
      <ErrorBox error={error} />
      {confirmElement}
    </section>
  );
}

// ---- Snapshots ----

function SnapshotsPanel(props: { client: OperatorClient; world: number; onRestored: () => void }) {
  const list = useLoad(() => opCall(props.client.snapshots.list()), `snapshots ${props.world}`);
  const [name, setName] = useState('');
  const [run, busy, error] = useAction();
  const [ask, confirmElement] = useConfirm();
  const restore = (s: SnapshotInfo) =>
    void ask({
      title: `Restore ${s.name}?`,
      body: `Every table and blob of the service goes back to ${formatFullDate(s.createdAt)}, the clock too; what was written since is lost.`,
      action: 'Restore snapshot',
    }).then(
      (ok) =>
        ok &&
        void run(() => opCall(props.client.snapshots.restore(s.name))).then((done) => {
          if (!done) return;
          toast(`Snapshot ${s.name} restored`);
          props.onRestored();
        }),
    );
  const remove = (s: SnapshotInfo) =>
    void ask({ title: `Delete ${s.name}?`, body: 'The snapshot is deleted; the service\'s state is not changed.', action: 'Delete snapshot' }).then(
      (ok) => ok && void run(() => opCall(props.client.snapshots.remove(s.name))).then((done) => done && (toast(`Snapshot ${s.name} deleted`), list.reload())),
    );
  return (
    <section aria-labelledby="snapshots-title">
      <h2 id="snapshots-title">Snapshots</h2>
      <form
        class="row"
        aria-label="Save a snapshot"
        onSubmit={(e) => {
          e.preventDefault();
          const n = name.trim();
          if (n)
            void run(() => opCall(props.client.snapshots.save(n))).then((ok) => {
              if (!ok) return;
              toast(`Snapshot ${n} saved`);
              setName('');
              list.reload();
            });
        }}
      >
        <label for="snapshot-name">Snapshot name</label>
        <input id="snapshot-name" required maxLength={64} pattern="[A-Za-z0-9][A-Za-z0-9._\-]*" title="Letters, digits, '.', '_' and '-', starting with a letter or digit" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <Action label="Save snapshot" type="submit" kind="primary" busy={busy} />
      </form>
      <ErrorBox error={error} />
      <LoadState of={[list]} what="the snapshots" />
      {list.data?.length === 0 ? <Empty>No snapshot yet: save one to come back to this state later.</Empty> : null}
      {list.data?.length ? (
        <div class="scroll-x" role="region" aria-label="Snapshots" tabIndex={0}>
          <table>
            <Head cols={['Name', 'Saved', 'Size', 'Clock offset', '']} />
            <tbody>
              {list.data.map((s) => (
                <tr key={s.name}>
                  <td>{s.name}</td>
                  <td class="nowrap" title={formatFullDate(s.createdAt)}>
                    {formatDate(s.createdAt)}
                  </td>
                  <td class="num nowrap">{formatSize(s.bytes)}</td>
                  <td class="num">{s.clockOffsetSeconds} s</td>
                  <td class="row-actions">
                    <button type="button" class="secondary small" aria-label={`Restore ${s.name}`} onClick={() => restore(s)} disabled={busy}>
                      Restore
                    </button>{' '}
                    <IconButton icon="remove" danger label={`Delete snapshot ${s.name}`} onClick={() => remove(s)} disabled={busy} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {confirmElement}
    </section>
  );
}

// ---- The clock ----

const UNITS = { seconds: 1, minutes: 60, hours: 3600, days: 86400 } as const;

function ClockPanel(props: { client: OperatorClient; world: number }) {
  const [n, setN] = useState(0);
  const clock = useLoad(() => opCall(props.client.clock.get()), `clock ${props.world} ${n}`);
  const [amount, setAmount] = useState('1');
  const [unit, setUnit] = useState<keyof typeof UNITS>('hours');
  const [run, busy, error] = useAction();
  const move = (seconds: number) => void run(() => opCall(props.client.clock.advance(seconds))).then((ok) => ok && (toast('Clock moved'), setN((x) => x + 1)));
  return (
    <section aria-labelledby="clock-title">
      <h2 id="clock-title">Clock</h2>
      <LoadState of={[clock]} what="the clock" />
      {clock.data ? (
        <p id="clock-state">
          Service time <strong>{formatFullDate(clock.data.now)}</strong>, offset <strong>{clock.data.offsetSeconds} s</strong> from the system's.
        </p>
      ) : null}
      <form
        class="row"
        aria-label="Move the clock"
        onSubmit={(e) => {
          e.preventDefault();
          move(Math.round(Number(amount) * UNITS[unit]));
        }}
      >
        <label for="clock-amount">Move by (negative: back)</label>
        <input id="clock-amount" type="number" step="any" required value={amount} onInput={(e) => setAmount(e.currentTarget.value)} />
        <label for="clock-unit" class="visually-hidden">
          Unit
        </label>
        <select id="clock-unit" value={unit} onChange={(e) => setUnit(e.currentTarget.value as keyof typeof UNITS)}>
          {Object.keys(UNITS).map((u) => (
            <option key={u}>{u}</option>
          ))}
        </select>
        <Action label="Move the clock" type="submit" kind="primary" busy={busy} />
        {clock.data?.offsetSeconds ? <Action label="Back to system time" busy={busy} onClick={() => move(-clock.data!.offsetSeconds)} /> : null}
      </form>
      <ErrorBox error={error} />
    </section>
  );
}
