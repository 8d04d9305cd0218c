-- Projects, their trees of work zones (with a closure table of ancestry), and
-- materialised membership: one role per member per project, and one access row per
-- member per work zone it reaches, written in the same transaction as the change.
CREATE TABLE projects (
  id uuid PRIMARY KEY,
  api1_id text NOT NULL UNIQUE,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  subscription_id uuid NOT NULL REFERENCES subscriptions (id),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  owner_id uuid NOT NULL REFERENCES users (id),
  location_lat double precision,
  location_lng double precision,
  spatial_auth_name text,
  spatial_code text,
  region text NOT NULL DEFAULT 'default',
  is_demo boolean NOT NULL DEFAULT false,
  root_workzone_id uuid NOT NULL,
  cover_blob_name text,
  created_at timestamptz NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL,
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
  deleted_at timestamptz,
  deleted_by uuid REFERENCES users (id) ON DELETE SET NULL,
  -- API 1 report: written at most once per project per day per node
  last_accessed_date date
);
CREATE INDEX projects_account ON projects (account_id, created_at);
CREATE INDEX projects_owner ON projects (owner_id);
CREATE INDEX projects_subscription ON projects (subscription_id);

CREATE TABLE workzones (
  id uuid PRIMARY KEY,
  api1_id text NOT NULL UNIQUE,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  parent_id uuid REFERENCES workzones (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  cover_blob_name text,
  created_at timestamptz NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL,
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX workzones_project ON workzones (project_id, created_at);
CREATE INDEX workzones_parent ON workzones (parent_id);
ALTER TABLE projects ADD CONSTRAINT projects_root_workzone_fk
  FOREIGN KEY (root_workzone_id) REFERENCES workzones (id) DEFERRABLE INITIALLY DEFERRED;

-- Every (ancestor, descendant) pair, including each zone with itself at depth 0.
CREATE TABLE workzone_ancestry (
  ancestor_id uuid NOT NULL REFERENCES workzones (id) ON DELETE CASCADE,
  descendant_id uuid NOT NULL REFERENCES workzones (id) ON DELETE CASCADE,
  depth integer NOT NULL CHECK (depth >= 0),
  PRIMARY KEY (ancestor_id, descendant_id)
);
CREATE INDEX workzone_ancestry_descendant ON workzone_ancestry (descendant_id, depth);

-- One role (and one expiration date) per member per project.
CREATE TABLE project_members (
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  member_type text NOT NULL CHECK (member_type IN ('user', 'group')),
  member_id uuid NOT NULL,
  role_id uuid NOT NULL REFERENCES roles (id) ON DELETE RESTRICT,
  expires_at timestamptz,
  added_by uuid REFERENCES users (id) ON DELETE SET NULL,
  added_at timestamptz NOT NULL,
  PRIMARY KEY (project_id, member_type, member_id)
);
CREATE INDEX project_members_member ON project_members (member_id, member_type);
CREATE INDEX project_members_role ON project_members (role_id);

-- Materialised access: every work zone each member reaches.
CREATE TABLE workzone_access (
  workzone_id uuid NOT NULL REFERENCES workzones (id) ON DELETE CASCADE,
  project_id uuid NOT NULL,
  member_type text NOT NULL,
  member_id uuid NOT NULL,
  PRIMARY KEY (workzone_id, member_type, member_id),
  FOREIGN KEY (project_id, member_type, member_id)
    REFERENCES project_members (project_id, member_type, member_id) ON DELETE CASCADE
);
CREATE INDEX workzone_access_member ON workzone_access (member_id, project_id);
CREATE INDEX workzone_access_project ON workzone_access (project_id, member_type, member_id);

-- Last activity per user (API 1 report), written at most once per user per day per node.
ALTER TABLE users ADD COLUMN last_activity_date date;
