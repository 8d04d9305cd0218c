-- The HMAC key of the local-disk store's signed URLs (src/adapters/storage/local-disk.ts):
-- created once for the deployment, here, under the migrations' lock, so every node of a
-- cluster signs and verifies with the same key; settings survive an operator reset.
-- gen_random_uuid() draws from the server's strong random source: three of them hold
-- 366 random bits.
INSERT INTO settings (key, value)
VALUES (
  'storage.signing_key',
  to_jsonb(replace(gen_random_uuid()::text || gen_random_uuid()::text || gen_random_uuid()::text, '-', ''))
)
ON CONFLICT (key) DO NOTHING;
