-- Tag lists and tags (CONTRACT §8). A list's tags_version rises with every change; each
-- tag records the version that last changed it; a deleted tag stays as a tombstone
-- (deleted_at set) so that "changes after version N" (API 2 afterVersion) and "changes
-- since date D" (API 1 since) return deletions too. tag_count is the live tag count,
-- kept in the same transaction as the change (limits, capacity, project stats).
CREATE TABLE tag_lists (
  id uuid PRIMARY KEY,
  api1_id text NOT NULL UNIQUE,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  workzone_id uuid NOT NULL REFERENCES workzones (id) ON DELETE CASCADE,
  tag_list_type text NOT NULL DEFAULT '3d',
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  color text NOT NULL,
  metadata_definitions jsonb NOT NULL DEFAULT '[]',
  attachments jsonb,
  pending boolean NOT NULL DEFAULT false,
  tags_version integer NOT NULL DEFAULT 0,
  tag_count integer NOT NULL DEFAULT 0 CHECK (tag_count >= 0),
  created_at timestamptz NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL,
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX tag_lists_project ON tag_lists (project_id, created_at);
CREATE INDEX tag_lists_workzone ON tag_lists (workzone_id);

-- data is the TagData JSON text as validated (json, not jsonb: stored and read verbatim,
-- so a full-list read does no per-tag conversion).
CREATE TABLE tags (
  list_id uuid NOT NULL REFERENCES tag_lists (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  data json NOT NULL,
  version integer NOT NULL,
  seq bigserial,
  created_at timestamptz NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL,
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
  deleted_at timestamptz,
  deleted_by uuid REFERENCES users (id) ON DELETE SET NULL,
  PRIMARY KEY (list_id, id)
);
CREATE INDEX tags_list_seq ON tags (list_id, seq);
CREATE INDEX tags_list_version ON tags (list_id, version);
CREATE INDEX tags_list_updated ON tags (list_id, updated_at);
