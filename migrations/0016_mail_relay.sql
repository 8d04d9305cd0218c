-- The SMTP relay (SMTP_URL; docs/operations.md "Mail relay", docs/security.md). Each outbox row
-- has a relay state: 'stored' (written while no SMTP was configured: it stays in the outbox
-- only; every row before this migration), 'pending' (to be relayed), 'sent', 'failed' (no more
-- attempts). A node claims due pending rows (FOR UPDATE SKIP LOCKED), counting an attempt and
-- pushing relay_next_at past its lease, sends, then marks the row for that attempt only.
ALTER TABLE outbox ADD COLUMN relay_state text NOT NULL DEFAULT 'stored'
  CHECK (relay_state IN ('stored', 'pending', 'sent', 'failed'));
ALTER TABLE outbox ADD COLUMN relay_attempts integer NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN relay_next_at timestamptz;
ALTER TABLE outbox ADD COLUMN relay_last_error text;
ALTER TABLE outbox ADD COLUMN relayed_at timestamptz;
-- The secret (a link's token) of a pending mail whose stored copy is redacted once relayed:
-- kept in clear only until the relay is done with the row (sent or failed), then cleared with it.
ALTER TABLE outbox ADD COLUMN relay_secret text;
CREATE INDEX outbox_relay_due ON outbox (relay_next_at) WHERE relay_state = 'pending';

-- One-time links of two kinds: 'set-password' (an invitation, or `admin reset-password`: the
-- user has no password) and 'reset' (forgot password: replaces an existing password).
ALTER TABLE invitations ADD COLUMN purpose text NOT NULL DEFAULT 'set-password'
  CHECK (purpose IN ('set-password', 'reset'));
