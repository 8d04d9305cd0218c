-- A job queue worked with FOR UPDATE SKIP LOCKED: safe with any number of nodes, with
-- retries and a visible state (queued, running, done, failed).
CREATE TABLE jobs (
  id uuid PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 3,
  run_after timestamptz NOT NULL,
  locked_until timestamptz,
  last_error text,
  result jsonb,
  -- what the job works on, so that conflicting jobs can be refused (e.g. two copies of one project)
  subjects text[] NOT NULL DEFAULT '{}',
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX jobs_ready ON jobs (run_after, created_at) WHERE state = 'queued';
CREATE INDEX jobs_running ON jobs (locked_until) WHERE state = 'running';
CREATE INDEX jobs_subjects ON jobs USING gin (subjects) WHERE state IN ('queued', 'running');
