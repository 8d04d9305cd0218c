-- SCIM 2.0 provisioning per account (docs/identity.md "SCIM provisioning"; src/modules/scim).

-- The account's SCIM bearer token (one per account; creating another replaces it at once).
-- token_hash: SHA-256 of the token, which is shown once and never stored.
CREATE TABLE scim_tokens (
  account_id uuid PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL
);

-- What SCIM knows of a user of the account beyond the user himself: the IdP's externalId and
-- whether the IdP has him active. A deactivated user is no member of the account any more;
-- this row is what keeps him visible to the IdP (and reactivatable).
CREATE TABLE scim_users (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The IdP's userName when it is not the e-mail address (Entra ID's UPN); null: the e-mail.
  user_name text,
  external_id text,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, user_id)
);
CREATE INDEX scim_users_user ON scim_users (user_id);
CREATE UNIQUE INDEX scim_users_user_name ON scim_users (account_id, lower(user_name));

-- The IdP's externalId of a group of the account.
CREATE TABLE scim_groups (
  group_id uuid PRIMARY KEY REFERENCES groups (id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  external_id text
);
