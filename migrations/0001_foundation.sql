-- Foundation: users, accounts and their members, subscriptions, OAuth state, outbox.
CREATE TABLE users (
  id uuid PRIMARY KEY,
  api1_id text NOT NULL UNIQUE,
  email text NOT NULL,
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  company text NOT NULL DEFAULT '',
  title text NOT NULL DEFAULT '',
  password_hash text,
  invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
  invited_at timestamptz,
  last_activity_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  api1_id text NOT NULL UNIQUE,
  name text NOT NULL,
  owner_id uuid NOT NULL REFERENCES users (id),
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX accounts_owner ON accounts (owner_id);

CREATE TABLE account_members (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  is_administrator boolean NOT NULL DEFAULT false,
  is_project_manager boolean NOT NULL DEFAULT false,
  is_project_lister boolean NOT NULL DEFAULT false,
  invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
  invited_at timestamptz,
  PRIMARY KEY (account_id, user_id)
);
CREATE INDEX account_members_user ON account_members (user_id);

CREATE TABLE subscriptions (
  id uuid PRIMARY KEY,
  api1_id text NOT NULL UNIQUE,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  name text,
  is_trial boolean NOT NULL DEFAULT false,
  is_va boolean NOT NULL DEFAULT false,
  is_active boolean NOT NULL DEFAULT true,
  scan_capacity integer NOT NULL DEFAULT 0 CHECK (scan_capacity >= 0),
  tag_capacity integer NOT NULL DEFAULT 0 CHECK (tag_capacity >= 0),
  geo_image_capacity integer NOT NULL DEFAULT 0 CHECK (geo_image_capacity >= 0),
  start_at timestamptz,
  end_at timestamptz,
  invite_account_owner_in_new_projects boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX subscriptions_account ON subscriptions (account_id);

-- ES256 signing keys, shared by every node of a cluster.
CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  alg text NOT NULL,
  private_jwk jsonb NOT NULL,
  public_jwk jsonb NOT NULL,
  created_at timestamptz NOT NULL
);

-- Codes and refresh tokens are stored as SHA-256 hashes only.
CREATE TABLE authorization_codes (
  code_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  redirect_uri text NOT NULL,
  code_challenge text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE TABLE refresh_tokens (
  id uuid PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id, created_at);

CREATE TABLE web_sessions (
  id_hash text PRIMARY KEY,
  user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  csrf text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);

CREATE TABLE login_throttle (
  key text PRIMARY KEY,
  failures integer NOT NULL,
  window_start timestamptz NOT NULL,
  locked_until timestamptz
);

CREATE TABLE outbox (
  id uuid PRIMARY KEY,
  to_email text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  links jsonb NOT NULL DEFAULT '[]',
  sent_at timestamptz NOT NULL
);
CREATE INDEX outbox_sent_at ON outbox (sent_at DESC);

-- Deployment-wide settings that survive a reset (the sandbox clock offset).
CREATE TABLE settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL
);
