-- Connect import/export jobs (API 1 "Start connect import/export", CONTRACT §6,
-- docs/connect.md). An export job fixes its scans when it is started; an import job
-- collects the files registered through it.
CREATE TABLE connect_jobs (
  id uuid PRIMARY KEY,
  slug text NOT NULL UNIQUE,
  kind text NOT NULL CHECK (kind IN ('import', 'export')),
  state text NOT NULL,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  workzone_id uuid NOT NULL REFERENCES workzones (id) ON DELETE CASCADE,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX connect_jobs_project ON connect_jobs (project_id);

CREATE TABLE connect_job_files (
  job_id uuid NOT NULL REFERENCES connect_jobs (id) ON DELETE CASCADE,
  file_id uuid NOT NULL REFERENCES files (id) ON DELETE CASCADE,
  position integer NOT NULL,
  PRIMARY KEY (job_id, file_id)
);
CREATE INDEX connect_job_files_file ON connect_job_files (file_id);
