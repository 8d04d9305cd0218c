-- Share links of a project's work zones (issue 29 item 3, docs/share-links.md): a link shows
-- one zone (and, with the `workzones` option, more) read-only to whoever holds its id (and its
-- password, when it has one). Links go with their zone and project; sessions with their link.

CREATE TABLE share_links (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  workzone_id uuid NOT NULL REFERENCES workzones (id) ON DELETE CASCADE,
  -- The additional zones (uuid strings); read only when share_options.workzones is true.
  shared_workzone_ids jsonb NOT NULL DEFAULT '[]',
  name text NOT NULL,
  -- The password's hash (the PasswordHasher port); null: no password.
  password_hash text,
  expires_at timestamptz,
  logo_blob text,
  membership_required boolean NOT NULL,
  share_options jsonb NOT NULL,
  saved_view jsonb,
  created_at timestamptz NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX share_links_project ON share_links (project_id, created_at);
CREATE INDEX share_links_workzone ON share_links (workzone_id);

-- A link's sessions: the bearer secret is kept hashed (SHA-256); every request re-reads the
-- session with its link, so a deleted link (cascade) or an expired one refuses at once.
CREATE TABLE share_link_sessions (
  token_hash text PRIMARY KEY,
  share_link_id uuid NOT NULL REFERENCES share_links (id) ON DELETE CASCADE,
  user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX share_link_sessions_link ON share_link_sessions (share_link_id);
