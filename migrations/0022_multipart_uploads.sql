-- Multipart uploads (docs/files.md "Multipart uploads", issue 30): the store's upload id
-- and the plan of a file sent in parts. Its reservation (capacity, storage quota) is a
-- pending_uploads row of the same id (kind 'file', md5 '' until completion), so every
-- count of live uploads includes it; this row outlives that one: once completed it keeps
-- the file's id (a second completion answers 409 with it) until the sweeper drops it at
-- expires_at; never completed, the sweeper aborts the store's upload (its parts go) and
-- deletes both rows.
CREATE TABLE multipart_uploads (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  workzone_id uuid NOT NULL,
  blob_name text NOT NULL,
  category text NOT NULL,
  name text NOT NULL,
  extension text NOT NULL,
  size bigint NOT NULL CHECK (size > 0),
  part_size bigint NOT NULL CHECK (part_size > 0),
  store_upload_id text NOT NULL,
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  file_id uuid,
  completed_at timestamptz,
  UNIQUE (project_id, blob_name)
);
CREATE INDEX multipart_uploads_expiry ON multipart_uploads (expires_at);
