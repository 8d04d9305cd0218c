-- Webhook delivery fairness and the endpoints' circuit breaker (docs/webhooks.md "Delivery").
-- paused_until: an endpoint whose attempt timed out, could not connect or got 5xx/408/429 is
-- not sent to before then (the whole endpoint backs off, not each subject);
-- breaker_failures: such failures in a row (the pause doubles with each), 0 after a 2xx;
-- last_claimed_at: when a node last leased it (claims serve the least recently served first).
ALTER TABLE webhook_endpoints
  ADD COLUMN paused_until timestamptz,
  ADD COLUMN breaker_failures integer NOT NULL DEFAULT 0,
  ADD COLUMN last_claimed_at timestamptz;

-- An endpoint disabled because its creator may no longer manage the account's webhooks
-- (removed, or a role without account:integrations:write): disabled in the transaction of
-- that change, and its account's owner mailed by the next notice pass, which clears this.
ALTER TABLE webhook_endpoints ADD COLUMN owner_notice_pending boolean NOT NULL DEFAULT false;
