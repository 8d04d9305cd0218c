-- Typed domain events (src/core/events/domain-events.ts), written in the transaction of the
-- change they describe. `seq` orders them as written; consumers that need a cursor must
-- allow for transactions committing out of `seq` order (see the consumer's own notes).
CREATE TABLE domain_events (
  seq bigserial PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  type text NOT NULL,
  account_id uuid,
  subject text NOT NULL,
  data jsonb NOT NULL,
  occurred_at timestamptz NOT NULL
);
CREATE INDEX domain_events_account ON domain_events (account_id, seq) WHERE account_id IS NOT NULL;
CREATE INDEX domain_events_occurred ON domain_events (occurred_at);
