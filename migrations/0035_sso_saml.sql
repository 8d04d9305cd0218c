-- Single sign-on with SAML 2.0, SP-initiated, beside OpenID Connect (docs/identity.md "SAML";
-- docs/decisions.md "SAML sign-in"; src/modules/sso).

-- An account's provider speaks one protocol. For SAML: issuer is the IdP's entity ID (what its
-- assertions' Issuer says, and the identities' issuer), client_id is our SP entity ID (the
-- audience the assertions must name), scopes are empty, and `saml` holds the IdP's single
-- sign-on URL, its signing certificates (PEM) and the attribute names read from assertions.
ALTER TABLE sso_providers
  ADD COLUMN protocol text NOT NULL DEFAULT 'oidc' CHECK (protocol IN ('oidc', 'saml')),
  ADD COLUMN saml jsonb,
  ADD CONSTRAINT sso_providers_saml_settings CHECK ((protocol = 'saml') = (saml IS NOT NULL));

-- AuthnRequests sent: the request ID (what the assertion's InResponseTo must name), bound to the
-- browser's cookie (hashed) and the authorize request to continue. The ACS endpoint, reached by
-- a cross-site POST that carries no cookie, validates the response and leaves the identity here
-- under a one-time ticket (hashed); the GET it redirects to, in the browser's own session, takes
-- the row and checks the browser. Expired after 10 minutes (the sso-logins pass deletes them).
CREATE TABLE sso_saml_requests (
  request_id text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  browser_hash text NOT NULL,
  login_hint text NOT NULL,
  return_to jsonb NOT NULL,
  ticket_hash text UNIQUE,
  identity jsonb,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sso_saml_requests_expiry ON sso_saml_requests (expires_at);

-- Assertion IDs accepted: each once, on every node, kept until the assertion's NotOnOrAfter
-- (plus the clock skew allowed), then deleted by the sso-logins pass.
CREATE TABLE sso_saml_assertions (
  issuer text NOT NULL,
  assertion_id text NOT NULL,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (issuer, assertion_id)
);
CREATE INDEX sso_saml_assertions_expiry ON sso_saml_assertions (expires_at);
