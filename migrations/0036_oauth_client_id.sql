-- The OAuth client an access token was issued to (issue 33 item 3; docs/tokens.md, docs/audit.md):
-- the authorization request's client_id is kept with its code, then with each refresh token of
-- the family the code starts, so every access token of that family carries it as its client_id
-- claim and the audit log names it. NULL (codes and refresh tokens issued before): the one
-- client every token named until then, "scanbase".
ALTER TABLE authorization_codes ADD COLUMN client_id text;
ALTER TABLE refresh_tokens ADD COLUMN client_id text;
