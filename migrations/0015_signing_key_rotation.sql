-- Signing-key rotation (docs/tokens.md, "Signing keys"): a key that stopped signing keeps
-- verifying, and stays in the JWKS, until retires_at (the longest access-token lifetime
-- after the rotation); NULL is the key that signs.
ALTER TABLE signing_keys ADD COLUMN retires_at timestamptz;
