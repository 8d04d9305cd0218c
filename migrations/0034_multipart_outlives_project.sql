-- A permanently deleted project's unfinished multipart uploads (issue 30): their rows used to
-- go with the project (ON DELETE CASCADE), leaving the store's parts with nothing to name
-- them, so no sweep ever removed them. The row now outlives the project: the multipart sweeper
-- claims the rows whose project is gone as it claims expired ones, aborts the store's upload
-- (its parts go) and deletes the row.
ALTER TABLE multipart_uploads DROP CONSTRAINT IF EXISTS multipart_uploads_project_id_fkey;
CREATE INDEX multipart_uploads_project ON multipart_uploads (project_id);
