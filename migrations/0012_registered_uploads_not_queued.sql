-- A pending upload deleted because it was registered (its blob is now named by a file, a
-- project's cover or a crop's thumbnail, written earlier in the same transaction) is not
-- queued for deletion: only uploads that leave their blob unnamed are (expired, reset).
-- Before, every registration queued its blob and the sweeper found it named and kept it.
CREATE OR REPLACE FUNCTION queue_blob_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'files' THEN
    INSERT INTO blob_deletions (project_id, blob_name) VALUES (OLD.project_id, OLD.blob_name) ON CONFLICT DO NOTHING;
  ELSIF TG_TABLE_NAME = 'pending_uploads' THEN
    IF NOT (EXISTS (SELECT 1 FROM files f WHERE f.project_id = OLD.project_id AND f.blob_name = OLD.blob_name)
        OR EXISTS (SELECT 1 FROM projects p WHERE p.id = OLD.project_id AND p.cover_blob_name = OLD.blob_name)
        OR EXISTS (SELECT 1 FROM crops c WHERE c.project_id = OLD.project_id AND c.thumbnail_blob_name = OLD.blob_name)) THEN
      INSERT INTO blob_deletions (project_id, blob_name) VALUES (OLD.project_id, OLD.blob_name) ON CONFLICT DO NOTHING;
    END IF;
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
