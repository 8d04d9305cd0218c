-- Refresh-token families (RFC 9700 §4.14.2): every refresh token records the family it
-- belongs to, the id of the first token a code exchange (or the operator) issued; a
-- refresh passes the family on. With REFRESH_TOKEN_REUSE_DETECTION on, presenting a
-- consumed token revokes the valid tokens of its family (the ones issued from it).
-- Existing tokens each start their own family.
ALTER TABLE refresh_tokens ADD COLUMN family_id uuid;
UPDATE refresh_tokens SET family_id = id;
ALTER TABLE refresh_tokens ALTER COLUMN family_id SET NOT NULL;
CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);

-- Rate limits shared by the nodes (src/core/limits/rate-limits.ts): per bucket key
-- ("a:<address>", "u:<user id>"), the tokens every node has taken, added by each node
-- every RATE_LIMIT_SYNC_SECONDS. Rows unchanged for an hour are deleted.
CREATE TABLE rate_limits (
  key text PRIMARY KEY,
  taken bigint NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX rate_limits_updated ON rate_limits (updated_at);
