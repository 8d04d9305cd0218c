-- Issue 26, second security pass (docs/security.md): a user's revocation point, invitations
-- to join an account that the user accepts, and the windowed counters of the invitation caps.

-- "Valid after" (docs/security.md "Evicting every session"): an access token of the user
-- issued at or before this instant (to the second) is refused. Written in the transaction
-- that ends every session of the user (a password set, reset or cleared; sign out
-- everywhere), which also deletes his browser sessions, revokes his refresh tokens and
-- spends his unused authorization codes; null: nothing was ever revoked this way.
ALTER TABLE users ADD COLUMN tokens_valid_after timestamptz;
CREATE INDEX web_sessions_user ON web_sessions (user_id);
CREATE INDEX authorization_codes_unused_user ON authorization_codes (user_id) WHERE used_at IS NULL;

-- An invitation to join an account, pending until the user accepts it (docs/security.md
-- "Invitations"): until then he is no member (no access, not in the account's groups),
-- and the account sees of him only what the inviter wrote (the address) and the user's id.
-- Accepting makes the account_members row with these roles; declining deletes this row.
CREATE TABLE account_invitations (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The address as the inviter wrote it (trimmed).
  email text NOT NULL,
  is_administrator boolean NOT NULL DEFAULT false,
  is_project_manager boolean NOT NULL DEFAULT false,
  is_project_lister boolean NOT NULL DEFAULT false,
  invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
  invited_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, user_id)
);
CREATE INDEX account_invitations_user ON account_invitations (user_id);

-- Counts over a fixed window that starts with the first use (INVITE_MAX_PER_ACCOUNT_DAY,
-- INVITE_MAILS_PER_RECIPIENT_DAY): one conditional UPSERT per charge, so concurrent
-- charges on every node are counted one after the other. The janitor deletes rows whose
-- window ended.
CREATE TABLE windowed_counters (
  key text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  window_end timestamptz NOT NULL,
  used integer NOT NULL
);
CREATE INDEX windowed_counters_end ON windowed_counters (window_end);
