-- A pending upload deleted because it was registered (its blob is now named by a file, a
-- project's cover or a crop's thumbnail, written earlier in the same transaction) is not
-- queued for deletion: only uploads that leave their blob unnamed are (expired, reset, a
-- cascade). Before, every registration queued its blob and the sweeper found it named and
-- kept it. The other tables keep 0010's trigger function.
CREATE FUNCTION queue_unnamed_upload_blob() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT (EXISTS (SELECT 1 FROM files f WHERE f.project_id = OLD.project_id AND f.blob_name = OLD.blob_name)
      OR EXISTS (SELECT 1 FROM projects p WHERE p.id = OLD.project_id AND p.cover_blob_name = OLD.blob_name)
      OR EXISTS (SELECT 1 FROM crops c WHERE c.project_id = OLD.project_id AND c.thumbnail_blob_name = OLD.blob_name)) THEN
    INSERT INTO blob_deletions (project_id, blob_name) VALUES (OLD.project_id, OLD.blob_name) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;

DROP TRIGGER pending_uploads_blob_deletion ON pending_uploads;
CREATE TRIGGER pending_uploads_blob_deletion AFTER DELETE ON pending_uploads FOR EACH ROW EXECUTE FUNCTION queue_unnamed_upload_blob();
