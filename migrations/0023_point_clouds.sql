-- Point clouds (docs/point-clouds.md "The module"): every registered E57, LAS, LAZ or PLY
-- file gets a row here, in the transaction that inserts the file (a trigger: no code path
-- that creates a file can forget it), and the pointclouds module's intake task queues its
-- conversion job. The row carries the conversion's state and progress (the API's
-- …/files/{f}/point-cloud) and names the COPC object stored beside the file, which is served
-- only once the row says `done` (the object is written whole before that). Deleting the
-- file deletes the row, and the row's deletion queues the COPC object for the upload
-- sweeper (0010's blob_deletions).
CREATE TABLE point_clouds (
  file_id uuid PRIMARY KEY REFERENCES files (id) ON DELETE CASCADE,
  project_id uuid NOT NULL,
  output_blob_name text NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'queued', 'converting', 'done', 'failed')),
  job_id uuid,
  phase text,
  points_read bigint NOT NULL DEFAULT 0,
  points_total bigint NOT NULL DEFAULT 0,
  percent double precision NOT NULL DEFAULT 0,
  eta_seconds double precision,
  reason text,
  message text,
  point_count bigint,
  bounds jsonb,
  output_size bigint,
  nodes integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX point_clouds_pending ON point_clouds (created_at) WHERE state = 'pending';

CREATE FUNCTION point_cloud_of_file() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF lower(NEW.extension) IN ('e57', 'las', 'laz', 'ply') THEN
    INSERT INTO point_clouds (file_id, project_id, output_blob_name, created_at, updated_at)
      VALUES (NEW.id, NEW.project_id, NEW.blob_name || '.copc.laz', NEW.created_at, NEW.created_at)
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER files_point_cloud AFTER INSERT ON files FOR EACH ROW EXECUTE FUNCTION point_cloud_of_file();

CREATE FUNCTION queue_point_cloud_blob_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO blob_deletions (project_id, blob_name) VALUES (OLD.project_id, OLD.output_blob_name) ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
CREATE TRIGGER point_clouds_blob_deletion AFTER DELETE ON point_clouds FOR EACH ROW EXECUTE FUNCTION queue_point_cloud_blob_deletion();

-- The point clouds registered before this migration are converted too.
INSERT INTO point_clouds (file_id, project_id, output_blob_name, created_at, updated_at)
  SELECT id, project_id, blob_name || '.copc.laz', created_at, created_at FROM files
  WHERE lower(extension) IN ('e57', 'las', 'laz', 'ply');
