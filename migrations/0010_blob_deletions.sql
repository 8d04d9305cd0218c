-- Objects whose last reference went away (docs/files.md "Objects without rows"): a file
-- row deleted (also by the cascade of a work zone or project deletion), a pending upload
-- deleted, a crop's thumbnail or a project's cover replaced or deleted. Triggers queue the
-- blob in the same transaction; the upload sweeper deletes the object unless something
-- references the blob again by then (a registration turns a pending upload into a file),
-- then the queue row. An object is thus never left behind by a cascade, and never deleted
-- while a row names it.
CREATE TABLE blob_deletions (
  project_id uuid NOT NULL,
  blob_name text NOT NULL,
  queued_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (project_id, blob_name)
);
CREATE INDEX blob_deletions_queued ON blob_deletions (queued_at);

CREATE FUNCTION queue_blob_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'files' OR TG_TABLE_NAME = 'pending_uploads' THEN
    INSERT INTO blob_deletions (project_id, blob_name) VALUES (OLD.project_id, OLD.blob_name) ON CONFLICT DO NOTHING;
  ELSIF TG_TABLE_NAME = 'crops' THEN
    IF OLD.thumbnail_blob_name IS NOT NULL THEN
      IF TG_OP = 'DELETE' THEN
        INSERT INTO blob_deletions (project_id, blob_name) VALUES (OLD.project_id, OLD.thumbnail_blob_name) ON CONFLICT DO NOTHING;
      ELSIF NEW.thumbnail_blob_name IS DISTINCT FROM OLD.thumbnail_blob_name THEN
        INSERT INTO blob_deletions (project_id, blob_name) VALUES (OLD.project_id, OLD.thumbnail_blob_name) ON CONFLICT DO NOTHING;
      END IF;
    END IF;
  ELSIF TG_TABLE_NAME = 'projects' THEN
    IF OLD.cover_blob_name IS NOT NULL THEN
      IF TG_OP = 'DELETE' THEN
        INSERT INTO blob_deletions (project_id, blob_name) VALUES (OLD.id, OLD.cover_blob_name) ON CONFLICT DO NOTHING;
      ELSIF NEW.cover_blob_name IS DISTINCT FROM OLD.cover_blob_name THEN
        INSERT INTO blob_deletions (project_id, blob_name) VALUES (OLD.id, OLD.cover_blob_name) ON CONFLICT DO NOTHING;
      END IF;
    END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER files_blob_deletion AFTER DELETE ON files FOR EACH ROW EXECUTE FUNCTION queue_blob_deletion();
CREATE TRIGGER pending_uploads_blob_deletion AFTER DELETE ON pending_uploads FOR EACH ROW EXECUTE FUNCTION queue_blob_deletion();
CREATE TRIGGER crops_blob_deletion AFTER DELETE OR UPDATE OF thumbnail_blob_name ON crops FOR EACH ROW EXECUTE FUNCTION queue_blob_deletion();
CREATE TRIGGER projects_blob_deletion AFTER DELETE OR UPDATE OF cover_blob_name ON projects FOR EACH ROW EXECUTE FUNCTION queue_blob_deletion();
