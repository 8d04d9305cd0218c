-- The audit log (docs/audit.md; src/modules/audit): one append-only record per change,
-- hash-chained. Each record's hash is SHA-256 of the previous record's hash and the record's
-- canonical content (src/modules/audit/core/chain.ts), so an edited or deleted record breaks
-- the chain (`npm run admin -- audit verify`).

-- seq: gapless, taken from audit_chain under its row lock (the chain stays linear under
-- concurrent writers). at: when; user_id, client, ip: who; surface, operation, targets:
-- what; outcome and status: how it ended; decisions: each permission the authorizer allowed
-- and the grant it came from. No foreign keys: a record outlives the user or account it names.
CREATE TABLE audit_log (
  seq bigint PRIMARY KEY,
  at timestamptz NOT NULL,
  account_id uuid,
  user_id uuid,
  client text,
  ip text,
  surface text NOT NULL,
  operation text NOT NULL,
  targets jsonb NOT NULL,
  outcome text NOT NULL,
  status integer,
  decisions jsonb NOT NULL,
  request_id text NOT NULL,
  prev_hash text NOT NULL,
  hash text NOT NULL
);
CREATE INDEX audit_log_account ON audit_log (account_id, seq);
CREATE INDEX audit_log_at ON audit_log (at);

-- The chain's one row: the last record (head) and the anchor, the last record retention
-- deleted (its seq and hash: verification starts there). Absent: an empty chain from genesis.
CREATE TABLE audit_chain (
  id integer PRIMARY KEY CHECK (id = 1),
  head_seq bigint NOT NULL,
  head_hash text NOT NULL,
  anchor_seq bigint NOT NULL,
  anchor_hash text NOT NULL
);
