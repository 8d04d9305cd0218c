-- Annotations and measurements of a project's work zones (issue 29 items 1 and 2,
-- docs/annotations.md). Both belong to one work zone and go with it (and with the project).

CREATE TABLE annotations (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  workzone_id uuid NOT NULL REFERENCES workzones (id) ON DELETE CASCADE,
  -- The project's running number of the annotation (1, 2, …), never reused in the project.
  number integer NOT NULL,
  annotation_type text NOT NULL CHECK (annotation_type IN ('Private note', 'Note', 'Issue', 'Resolved')),
  title text NOT NULL,
  description text,
  due_date date,
  priority integer CHECK (priority IN (0, 1, 5, 8, 10)),
  position_x double precision NOT NULL,
  position_y double precision NOT NULL,
  position_z double precision NOT NULL,
  normal_x double precision,
  normal_y double precision,
  normal_z double precision,
  img_blob_name text,
  saved_view jsonb,
  model_element_guids jsonb,
  labels jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL,
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
  UNIQUE (project_id, number)
);
CREATE INDEX annotations_project ON annotations (project_id, number);
CREATE INDEX annotations_workzone ON annotations (workzone_id);

CREATE TABLE annotation_assignees (
  annotation_id uuid NOT NULL REFERENCES annotations (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  position integer NOT NULL,
  PRIMARY KEY (annotation_id, user_id)
);
CREATE INDEX annotation_assignees_user ON annotation_assignees (user_id);

CREATE TABLE annotation_comments (
  id uuid PRIMARY KEY,
  annotation_id uuid NOT NULL REFERENCES annotations (id) ON DELETE CASCADE,
  description text NOT NULL,
  created_at timestamptz NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX annotation_comments_annotation ON annotation_comments (annotation_id, created_at);

-- The project's last annotation number: numbers are not reused after a deletion.
CREATE TABLE annotation_numbers (
  project_id uuid PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  last_number integer NOT NULL
);

CREATE TABLE measurements (
  id uuid PRIMARY KEY,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  workzone_id uuid NOT NULL REFERENCES workzones (id) ON DELETE CASCADE,
  name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('distance', 'polyline', 'area', 'height')),
  -- [[x, y, z], …] in project coordinates.
  points jsonb NOT NULL,
  camera_state text,
  scan_id uuid REFERENCES files (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL,
  updated_by uuid REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX measurements_project ON measurements (project_id, created_at);
CREATE INDEX measurements_workzone ON measurements (workzone_id);
