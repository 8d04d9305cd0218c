// The audit module's port: its repository (postgres/audit-repo.ts) and the record's shape.

/** Where a change came from. */
export type AuditSurface = 'api2' | 'api1' | 'operator' | 'oauth' | 'sso' | 'admin' | 'other';

/**
 * How it ended: `applied` (a change committed: written in its transaction, or a request that
 * answered below 400), `refused` (401/403), `failed` (any other answer of 400 or more),
 * `signed-in` and `sign-in-failed` (the sign-in pages).
 */
export type AuditOutcome = 'applied' | 'refused' | 'failed' | 'signed-in' | 'sign-in-failed';

/** A permission allowed for the change and the grant it came from (src/core/permissions/decisions.ts). */
export interface AuditDecision {
  permission: string;
  grant: string | null;
}

/** What a record says, before it is chained. */
export interface AuditEntry {
  at: Date;
  accountId: string | null;
  userId: string | null;
  /**
   * The client (audit-log.ts oauthClientName, CREDENTIAL_CLIENTS): `oauth:<client_id>` (an
   * access token's client, or the OAuth client the token endpoint or authorize pages acted
   * for), `operator-token`, `admin-command`, `scim-token`; null: no credential. Records
   * written before client ids were kept hold the User-Agent.
   */
  client: string | null;
  ip: string | null;
  surface: AuditSurface;
  /** The operationId and the route ("createProject POST /api/2/accounts/{accountRef}/projects"), or the admin command. */
  operation: string;
  /** The path parameters (`name=value`) and the subjects of the domain events the change published. */
  targets: string[];
  outcome: AuditOutcome;
  /** The HTTP status (or the admin command's exit code); null for a record written in the change's transaction. */
  status: number | null;
  decisions: AuditDecision[];
  /** Ties the records of one request (or admin command) together. */
  requestId: string;
}

/** A record as stored: its place in the chain and its hashes. */
export interface AuditRecord extends AuditEntry {
  seq: number;
  prevHash: string;
  hash: string;
}

/** The chain's state: the last record, and the anchor (the last record retention deleted). */
export interface ChainState {
  headSeq: number;
  headHash: string;
  anchorSeq: number;
  anchorHash: string;
}

/** The export's form: NDJSON or CSV lines (without the CSV header), accounts and users as URNs of `urnNamespace`. */
export interface ExportForm {
  format: 'ndjson' | 'csv';
  urnNamespace: string;
}

/** What a query selects (every field optional). */
export interface AuditFilter {
  accountId?: string;
  userId?: string;
  /** A target as recorded (`projectRef=…`, `project:<uuid>`). */
  target?: string;
  from?: Date;
  to?: Date;
}

export interface AuditRepo {
  /** The chain's row, locked until the transaction ends (made at genesis when absent). */
  lockChain(): Promise<ChainState>;
  /** Inserts a chained record and makes it the head (under lockChain). */
  append(record: AuditRecord): Promise<void>;
  /** The chain's row as it is (genesis when absent). */
  chain(): Promise<ChainState>;
  /** Newest first: records matching `filter` with seq below `beforeSeq` (null: from the newest). */
  page(filter: AuditFilter, beforeSeq: number | null, limit: number): Promise<AuditRecord[]>;
  /** Oldest first: records matching `filter` with seq above `afterSeq` (the export, the verification). */
  after(filter: AuditFilter, afterSeq: number, limit: number): Promise<AuditRecord[]>;
  /**
   * Oldest first, as the export sends them: the lines of at most `limit` records matching
   * `filter` with seq above `afterSeq`, built by the database in `form` (API 2's NDJSON or CSV
   * lines, byte for byte), with the last one's seq and how many; null: none left.
   */
  exportLines(filter: AuditFilter, afterSeq: number, limit: number, form: ExportForm): Promise<{ lines: Uint8Array; lastSeq: number; count: number } | null>;
  /**
   * Retention's end: of the `batch` records after `afterSeq` (the anchor), in chain order, the
   * last one before the first not older than `cutoff`; null: none to delete.
   */
  retentionEnd(cutoff: Date, afterSeq: number, batch: number): Promise<{ seq: number; hash: string } | null>;
  /** Deletes the records up to `seq` and makes it the anchor (under lockChain). */
  dropThrough(seq: number, hash: string): Promise<number>;
}
