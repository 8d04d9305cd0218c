-- Single sign-on with OpenID Connect, per account (docs/identity.md; src/modules/sso).

-- The account's identity provider (one per account). client_secret_sealed: the client secret
-- sealed with AES-256-GCM under the deployment's SSO key (the setting sso.sealing_key, which
-- snapshots leave out like the other deployment secrets); never returned, never logged.
CREATE TABLE sso_providers (
  account_id uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  display_name text NOT NULL,
  issuer text NOT NULL,
  client_id text NOT NULL,
  client_secret_sealed text,
  scopes text[] NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

-- E-mail domains an account claims. A domain belongs to one account at most once verified
-- (the unique index); unverified claims of several accounts may wait side by side.
-- verification_token_hash: SHA-256 of the token the operator confirms (docs/identity.md).
CREATE TABLE sso_domains (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  domain text NOT NULL,
  verification_token_hash text NOT NULL,
  verified_at timestamptz,
  require_sso boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, domain)
);
CREATE UNIQUE INDEX sso_domains_verified ON sso_domains (domain) WHERE verified_at IS NOT NULL;

-- Mapping rules: when the ID token's claim holds the value, the user gets the group and/or the
-- account role. Re-applied at each sign-in: the groups and roles rules give are the user's.
CREATE TABLE sso_mapping_rules (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  claim text NOT NULL,
  value text NOT NULL,
  group_id uuid REFERENCES groups (id) ON DELETE CASCADE,
  account_role text CHECK (account_role IN ('administrator', 'projectManager', 'projectLister')),
  created_at timestamptz NOT NULL,
  CHECK (group_id IS NOT NULL OR account_role IS NOT NULL)
);
CREATE INDEX sso_mapping_rules_account ON sso_mapping_rules (account_id, created_at);

-- Who an IdP subject is here: (account, issuer, sub) → user, written at the first sign-in.
CREATE TABLE sso_identities (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  issuer text NOT NULL,
  subject text NOT NULL,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  last_sign_in_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, issuer, subject)
);

-- Sign-ins under way at an IdP: the state (hashed), PKCE verifier and nonce, bound to the
-- browser's cookie, with the authorize request to continue. Taken (deleted) by the callback,
-- so a replayed state finds nothing; expired after 10 minutes.
CREATE TABLE sso_logins (
  state_hash text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  browser_hash text NOT NULL,
  code_verifier text NOT NULL,
  nonce text NOT NULL,
  login_hint text NOT NULL,
  return_to jsonb NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sso_logins_expiry ON sso_logins (expires_at);
