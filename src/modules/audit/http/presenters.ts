// The audit log as API 2 shows it: a record as JSON (accounts and users as URNs), and the
// export's lines (NDJSON, CSV).
import type { UrnType } from '../../../core/ids/urn.ts';
import type { AuditRecord } from '../core/ports.ts';

export function auditPresenters(urn: (type: UrnType, id: string) => string) {
  const record = (r: AuditRecord) => ({
    seq: r.seq, at: r.at.toISOString(), accountId: r.accountId ? urn('account', r.accountId) : null, userId: r.userId ? urn('user', r.userId) : null,
    client: r.client, ip: r.ip, surface: r.surface, operation: r.operation, targets: r.targets, outcome: r.outcome, status: r.status,
    decisions: r.decisions, requestId: r.requestId, prevHash: r.prevHash, hash: r.hash,
  });
  return { record };
}

export const CSV_COLUMNS = [
  'seq', 'at', 'accountId', 'userId', 'client', 'ip', 'surface', 'operation', 'targets', 'outcome', 'status', 'decisions', 'requestId', 'prevHash', 'hash',
] as const;

/**
 * One CSV field (RFC 4180): quoted when it holds a quote, a comma or a line break; a text a
 * spreadsheet would take for a formula (=, +, -, @ first) is prefixed with an apostrophe.
 */
export function csvField(v: string | number | null): string {
  if (v === null) return '';
  let s = String(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A presented record as a CSV line: targets and decisions (`permission<-grant`) joined by spaces. */
export function csvLine(p: ReturnType<ReturnType<typeof auditPresenters>['record']>): string {
  const cells: Record<(typeof CSV_COLUMNS)[number], string | number | null> = {
    ...p,
    targets: p.targets.join(' '),
    decisions: p.decisions.map((d) => `${d.permission}<-${d.grant ?? '?'}`).join(' '),
  };
  return `${CSV_COLUMNS.map((c) => csvField(cells[c])).join(',')}\r\n`;
}
