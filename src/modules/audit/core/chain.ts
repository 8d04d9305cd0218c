// The hash chain (pure; docs/audit.md): record n's hash is SHA-256 of record n-1's hash, a
// newline, and record n's canonical content: JSON with keys sorted at every level and the
// time as ISO 8601 in milliseconds, so what the database gives back (jsonb reorders keys)
// hashes as what was written.
import { sha256Hex } from '../../../core/crypto/digest.ts';
import type { AuditEntry, AuditRecord, ChainState } from './ports.ts';

/** The hash before the first record. */
export const GENESIS_HASH = '0'.repeat(64);

export const GENESIS: ChainState = { headSeq: 0, headHash: GENESIS_HASH, anchorSeq: 0, anchorHash: GENESIS_HASH };

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v instanceof Date) return v.toISOString();
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
  }
  return v;
}

/** A record's canonical content: every field of the entry and its seq. */
export function canonicalContent(seq: number, e: AuditEntry): string {
  return JSON.stringify(sorted({
    seq, at: e.at, accountId: e.accountId, userId: e.userId, client: e.client, ip: e.ip, surface: e.surface,
    operation: e.operation, targets: e.targets, outcome: e.outcome, status: e.status, decisions: e.decisions, requestId: e.requestId,
  }));
}

export const chainHash = (prevHash: string, seq: number, e: AuditEntry): string => sha256Hex(`${prevHash}\n${canonicalContent(seq, e)}`);

/** The record that follows `head` in the chain. */
export function chained(head: ChainState, e: AuditEntry): AuditRecord {
  const seq = head.headSeq + 1;
  return { ...e, seq, prevHash: head.headHash, hash: chainHash(head.headHash, seq, e) };
}

/** What a verification found wrong about one record (or the chain's end). */
export interface ChainProblem {
  seq: number;
  problem: 'missing' | 'edited' | 'relinked' | 'tail-missing';
}

/**
 * Checks records in order against the chain (pure, one batch at a time): `state` is where the
 * last batch ended (seq and hash expected next). Answers the problems found and the new state.
 */
export function checkBatch(
  state: { seq: number; hash: string }, records: readonly AuditRecord[],
): { state: { seq: number; hash: string }; problems: ChainProblem[] } {
  const problems: ChainProblem[] = [];
  let { seq, hash } = state;
  for (const r of records) {
    if (r.seq !== seq + 1) problems.push({ seq: seq + 1, problem: 'missing' });
    else if (r.prevHash !== hash) problems.push({ seq: r.seq, problem: 'relinked' });
    if (chainHash(r.prevHash, r.seq, r) !== r.hash) problems.push({ seq: r.seq, problem: 'edited' });
    seq = r.seq;
    hash = r.hash;
  }
  return { state: { seq, hash }, problems };
}
