-- Invitation tokens at rest (docs/security.md, "Secrets and keys"). The invitations table
-- has kept only SHA-256 hashes of the tokens since 0002; the outbox kept every invitation
-- mail whole, link included. From now on an outbox row that still holds a token names its
-- hash (secret_hash), so the token is redacted from the row once the invitation is spent.
ALTER TABLE outbox ADD COLUMN secret_hash text;
CREATE INDEX outbox_secret_hash ON outbox (secret_hash) WHERE secret_hash IS NOT NULL;

-- Existing invitation mails: tie each to its token's hash (the link's last path segment).
UPDATE outbox
SET secret_hash = encode(sha256(convert_to(substring(links ->> 0 FROM '/invitations/([A-Za-z0-9_-]+)$'), 'UTF8')), 'hex')
WHERE jsonb_typeof(links) = 'array' AND links ->> 0 ~ '/invitations/[A-Za-z0-9_-]+$';

-- And redact the token from those whose invitation is no longer usable (used, expired, or gone).
WITH spent AS (
  SELECT o.id, substring(o.links ->> 0 FROM '/invitations/([A-Za-z0-9_-]+)$') AS token
  FROM outbox o
  WHERE o.secret_hash IS NOT NULL
    AND NOT EXISTS (
      SELECT 1 FROM invitations i WHERE i.token_hash = o.secret_hash AND i.used_at IS NULL AND i.expires_at > now()
    )
)
UPDATE outbox o
SET body = replace(o.body, spent.token, '[redacted]'),
    links = replace(o.links::text, spent.token, '[redacted]')::jsonb,
    secret_hash = NULL
FROM spent
WHERE o.id = spent.id;
