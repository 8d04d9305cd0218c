-- Webhooks (docs/webhooks.md): endpoints an account's administrators register, and one
-- delivery row per (endpoint, domain event), written in the event's own transaction.
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  url text NOT NULL,
  -- event type names, or '*' for every type the account's administrators may read
  events text[] NOT NULL,
  description text NOT NULL DEFAULT '',
  enabled boolean NOT NULL,
  -- The signing secret (whsec_<base64>): kept usable because HMAC needs the key itself.
  secret text NOT NULL,
  -- After a rotation, the previous secret also signs until previous_secret_until.
  previous_secret text,
  previous_secret_until timestamptz,
  -- 'failing': disabled by the relay after a day of failed attempts (null otherwise).
  disabled_reason text,
  -- The first failed attempt since the last success (null while the endpoint answers).
  failing_since timestamptz,
  -- The node sending this endpoint's deliveries holds it until then (one node at a time).
  lease_until timestamptz,
  created_by uuid,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id, created_at);

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id uuid NOT NULL REFERENCES domain_events (id) ON DELETE CASCADE,
  -- the event's seq: the order of sending, per endpoint and subject
  event_seq bigint NOT NULL,
  type text NOT NULL,
  subject text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_at timestamptz,
  -- no attempt after this (a day after the first, or after a replay)
  retry_until timestamptz NOT NULL,
  last_status integer,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL,
  UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_id, event_seq) WHERE state = 'pending';
-- the per-subject order check: an older pending delivery of the same endpoint and subject
CREATE INDEX webhook_deliveries_pending_subject ON webhook_deliveries (endpoint_id, subject, event_seq) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_listing ON webhook_deliveries (endpoint_id, event_seq DESC);
