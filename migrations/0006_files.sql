-- Files on object storage (docs/files.md): registered files, the uploads signed but not
-- yet registered (swept, object and row, after UPLOAD_TTL), and crops.
CREATE TABLE files (
  id uuid PRIMARY KEY,
  api1_id text NOT NULL UNIQUE,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  workzone_id uuid NOT NULL REFERENCES workzones (id) ON DELETE CASCADE,
  category text NOT NULL,
  format_id integer NOT NULL,
  name text NOT NULL,
  extension text NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),
  md5 text NOT NULL,
  blob_name text NOT NULL,
  translation jsonb,
  rotation jsonb,
  scale jsonb,
  created_at timestamptz NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz,
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
  imported_at timestamptz,
  UNIQUE (project_id, blob_name)
);
CREATE INDEX files_project ON files (project_id, category, created_at);
CREATE INDEX files_workzone ON files (workzone_id);
CREATE INDEX files_created_by ON files (created_by, category);

-- A signed upload: what the client promised (size, MD5) and where it goes; deleted when
-- registered, or by the sweeper (with its object) once expires_at has passed.
CREATE TABLE pending_uploads (
  id uuid PRIMARY KEY,
  blob_name text NOT NULL,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  workzone_id uuid,
  crop_id uuid,
  kind text NOT NULL CHECK (kind IN ('file', 'project-cover', 'crop-cover')),
  category text,
  name text NOT NULL,
  extension text NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),
  md5 text NOT NULL,
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  UNIQUE (project_id, blob_name)
);
CREATE INDEX pending_uploads_expiry ON pending_uploads (expires_at);
CREATE INDEX pending_uploads_user ON pending_uploads (user_id, category);

-- Crops (vendor "Crop"): strings the viewer owns, kept as given.
CREATE TABLE crops (
  id uuid PRIMARY KEY,
  api1_id text NOT NULL UNIQUE,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  workzone_id uuid NOT NULL REFERENCES workzones (id) ON DELETE CASCADE,
  name text NOT NULL,
  crop text NOT NULL,
  actual_crop text NOT NULL,
  rotation text NOT NULL,
  layers text,
  camera_type text NOT NULL,
  camera_state text NOT NULL,
  scan text NOT NULL,
  thumbnail_blob_name text,
  oview integer,
  settings text,
  created_at timestamptz NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL,
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX crops_project ON crops (project_id, created_at);
