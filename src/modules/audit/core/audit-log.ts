// The audit log's use cases (docs/audit.md): the record of each change, written in the
// change's own transaction (a commit step of the store); the outcome record of a request that
// changed nothing in a transaction (refused, failed, a sign-in); the records of an admin
// command; the query and export of an account's records; the verification of the chain and
// retention (which keeps it verifiable by moving the anchor).
import type { EntityRef } from '../../../core/ids/urn.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { Store } from '../../../core/ports/repositories.ts';
import { sliceOf, storeUseOf } from '../../../core/ports/store-slices.ts';
import type { StoredDomainEvent } from '../../../core/events/domain-events.ts';
import { requirePermission, type Actor, type Authorizer } from '../../../core/permissions/authorizer.ts';
import { currentDecisionLog, runWithDecisionLog } from '../../../core/permissions/decisions.ts';
import { chained, checkBatch, type ChainProblem } from './chain.ts';
import type { AuditEntry, AuditFilter, AuditOutcome, AuditRecord, AuditRepo, ExportForm } from './ports.ts';
import { RequestAudit } from './request-audit.ts';

export type AuditStore = Store<{ audit: AuditRepo }>;

/** What it reads of the store, and what its transactions (and its commit step) are handed (src/core/ports/store-slices.ts). */
export const AUDIT_STORE = storeUseOf<{ audit: AuditRepo }>()({ reads: ['audit'], writes: ['audit'] });

/** Limits of the audit log (docs/audit.md). */
export const AUDIT_LIMITS = {
  /** Records per page of the query: default and most. */
  defaultPageSize: 100,
  maxPageSize: 1000,
  /** Records read per batch by the verification (about 1 MB). */
  batch: 1000,
  /** Records per batch of the export, as lines the database builds (about 0.8 MB of NDJSON). */
  exportBatch: 5000,
  retentionBatch: 10_000,
  /** Problems a verification lists (it counts them all). */
  problemsListed: 50,
};

/**
 * A record's `client` (docs/audit.md): `oauth:<client_id>` for a request made with an access
 * token (API 2, API 1, …) or for the OAuth client the token endpoint and the authorize pages
 * acted for; otherwise the kind of credential used.
 */
export const oauthClientName = (clientId: string): string => `oauth:${clientId}`;
export const CREDENTIAL_CLIENTS = {
  /** The operator surface's OPERATOR_TOKEN. */
  operator: 'operator-token',
  /** `npm run admin` (access to the host). */
  admin: 'admin-command',
  /** An account's SCIM bearer token. */
  scim: 'scim-token',
} as const;

/** The outcome of an answered request (pure). */
export function outcomeOf(status: number, signIn: boolean, signedIn: boolean): AuditOutcome {
  if (signIn) return signedIn && status < 400 ? 'signed-in' : 'sign-in-failed';
  if (status < 400) return 'applied';
  return status === 401 || status === 403 ? 'refused' : 'failed';
}

/** What a verification found: records checked, and the problems (the first few listed). */
export interface Verification {
  ok: boolean;
  checked: number;
  anchorSeq: number;
  headSeq: number;
  problemCount: number;
  problems: ChainProblem[];
}

export interface AuditLog {
  /** A request (or command) to audit, from now: its records carry these facts. */
  open(facts: Omit<RequestAudit['facts'], 'at' | 'requestId'>): RequestAudit;
  /** The record of a request that wrote none in a transaction (or a sign-in), once it is answered with `status`. */
  recordOutcome(audit: RequestAudit, status: number): Promise<void>;
  /** Runs an admin command as one audited change: its transactions' records, or one with its exit code. */
  command<T extends { code: number }>(name: string, run: () => Promise<T>): Promise<T>;
  /** An account's records, newest first (account:administrators:read). */
  query(actor: Actor, account: EntityRef, filter: Omit<AuditFilter, 'accountId'>, page: { beforeSeq: number | null; limit: number }): Promise<{ records: AuditRecord[]; nextBeforeSeq: number | null }>;
  /**
   * An account's records, oldest first, as `form`'s lines in chunks (a batch of records each,
   * built by the database), read as they are consumed (account:administrators:read, checked
   * before the first).
   */
  exportLines(actor: Actor, account: EntityRef, filter: Omit<AuditFilter, 'accountId'>, form: ExportForm): Promise<AsyncIterable<Uint8Array>>;
  /** Walks the chain from its anchor: every record's hash and link, and that none is missing. */
  verify(): Promise<Verification>;
  /** Deletes the records older than the retention (batch by batch), moving the anchor; answers how many. */
  retain(): Promise<number>;
}

export function createAuditLog(deps: {
  store: AuditStore;
  clock: Clock;
  ids: Ids;
  authorizer: Authorizer;
  /** Days a record is kept; 0: for ever. */
  retentionDays: number;
}): AuditLog {
  const { clock, ids, authorizer } = deps;
  const store = sliceOf(deps.store, AUDIT_STORE);

  const append = async (repos: { audit: AuditRepo }, entry: AuditEntry) => {
    const head = await repos.audit.lockChain();
    await repos.audit.append(chained(head, entry));
  };

  const entryOf = (a: RequestAudit, events: readonly StoredDomainEvent[], outcome: AuditOutcome, status: number | null): AuditEntry => {
    const targets = new Set(a.facts.targets);
    for (const e of events) targets.add(e.subject);
    // Why a sign-in failed (`reason=sso:signature`…): each refusal of single sign-on its own.
    if (a.signInFailure) targets.add(`reason=${a.signInFailure}`);
    const accountId = a.allowed.find((d) => d.accountId)?.accountId ?? events.find((e) => e.accountId)?.accountId ?? a.accountId ?? null;
    const decisions = new Map<string, { permission: string; grant: string | null }>();
    for (const d of a.allowed) decisions.set(`${d.permission} ${d.grant}`, { permission: d.permission, grant: d.grant });
    return {
      at: a.facts.at, accountId, userId: a.facts.userId() ?? a.signedIn ?? null,
      client: a.facts.client() ?? (a.oauthClient !== undefined ? oauthClientName(a.oauthClient) : null), ip: a.facts.ip,
      surface: a.facts.surface, operation: a.facts.operation, targets: [...targets], outcome, status,
      decisions: [...decisions.values()], requestId: a.facts.requestId,
    };
  };

  // A transaction that published domain events during an audited request (a change) writes
  // its record last, in itself: no change commits without its record. The chain's row lock
  // keeps concurrent writers in line until each commits.
  deps.store.beforeCommit?.(({ audit: repo }, events) => {
    if (events.length === 0) return undefined;
    const audit = currentDecisionLog();
    if (!(audit instanceof RequestAudit)) return undefined;
    audit.recorded += 1;
    return append({ audit: repo }, entryOf(audit, events, 'applied', null));
  });

  async function recordOutcome(audit: RequestAudit, status: number): Promise<void> {
    if (audit.recorded > 0 && !audit.facts.signIn) return;
    const entry = entryOf(audit, [], outcomeOf(status, audit.facts.signIn, audit.signedIn !== undefined), status);
    await store.transaction((repos) => append(repos, entry));
  }

  async function scopeOf(actor: Actor, account: EntityRef): Promise<string> {
    const scope = await authorizer.account(actor, account);
    requirePermission(scope.permissions, 'account:administrators:read', 'read-audit-log-forbidden');
    return scope.account.id;
  }

  return {
    recordOutcome,
    open: (facts) => new RequestAudit({ ...facts, at: clock.now(), requestId: ids.uuid() }),

    async command(name, run) {
      const audit = new RequestAudit({
        at: clock.now(), surface: 'admin', operation: `admin ${name}`, targets: [], ip: null, client: () => CREDENTIAL_CLIENTS.admin,
        requestId: ids.uuid(), userId: () => null, signIn: false,
      });
      let result;
      try {
        result = await runWithDecisionLog(audit, run);
      } catch (e) {
        await recordOutcome(audit, 500); // a bug in the command: recorded as failed, then reported
        throw e;
      }
      if (audit.recorded === 0) {
        const entry = entryOf(audit, [], result.code === 0 ? 'applied' : 'failed', result.code);
        await store.transaction((repos) => append(repos, entry));
      }
      return result;
    },

    async query(actor, account, filter, page) {
      const accountId = await scopeOf(actor, account);
      const limit = Math.min(Math.max(page.limit, 1), AUDIT_LIMITS.maxPageSize);
      const records = await store.repos.audit.page({ ...filter, accountId }, page.beforeSeq, limit + 1);
      const more = records.length > limit;
      if (more) records.length = limit;
      return { records, nextBeforeSeq: more ? records[records.length - 1]!.seq : null };
    },

    async exportLines(actor, account, filter, form) {
      const accountId = await scopeOf(actor, account);
      return {
        async *[Symbol.asyncIterator]() {
          let after = 0;
          for (;;) {
            const batch = await store.repos.audit.exportLines({ ...filter, accountId }, after, AUDIT_LIMITS.exportBatch, form);
            if (!batch) return;
            yield batch.lines;
            if (batch.count < AUDIT_LIMITS.exportBatch) return;
            after = batch.lastSeq;
          }
        },
      };
    },

    async verify() {
      const chain = await store.repos.audit.chain();
      let state = { seq: chain.anchorSeq, hash: chain.anchorHash };
      let checked = 0;
      let problemCount = 0;
      const problems: ChainProblem[] = [];
      const found = (list: ChainProblem[]) => {
        problemCount += list.length;
        problems.push(...list.slice(0, AUDIT_LIMITS.problemsListed - problems.length));
      };
      for (;;) {
        const batch = await store.repos.audit.after({}, state.seq, AUDIT_LIMITS.batch);
        const checkedBatch = checkBatch(state, batch);
        found(checkedBatch.problems);
        state = checkedBatch.state;
        checked += batch.length;
        if (batch.length < AUDIT_LIMITS.batch) break;
      }
      // Records after the last one read: deleted from the end (or the head moved without them).
      if (state.seq !== chain.headSeq || state.hash !== chain.headHash) found([{ seq: chain.headSeq, problem: 'tail-missing' }]);
      return { ok: problemCount === 0, checked, anchorSeq: chain.anchorSeq, headSeq: chain.headSeq, problemCount, problems };
    },

    async retain() {
      if (deps.retentionDays <= 0) return 0;
      const cutoff = new Date(clock.now().getTime() - deps.retentionDays * 86_400_000);
      let deleted = 0;
      for (;;) {
        const n = await store.transaction(async (repos) => {
          const chain = await repos.audit.lockChain();
          const end = await repos.audit.retentionEnd(cutoff, chain.anchorSeq, AUDIT_LIMITS.retentionBatch);
          return end ? repos.audit.dropThrough(end.seq, end.hash) : 0;
        });
        deleted += n;
        if (n < AUDIT_LIMITS.retentionBatch) return deleted;
      }
    },
  };
}
