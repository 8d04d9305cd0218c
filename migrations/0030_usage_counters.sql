-- Usage counters (docs/usage.md): actions per UTC day, per user, per project, per action,
-- the rows of API 2's usage report (getUsageReport). Written by triggers, in the
-- transaction of the action itself, so no code path that uploads a scan, creates tags or
-- finishes a mesh export can forget to count it. A row keeps the project's subscription
-- and name at the time of the action, so a report still lists a project deleted since
-- (permanently deleted ones too: no foreign key on project_id or user_id).
CREATE TABLE usage_counters (
  day date NOT NULL,
  subscription_id uuid NOT NULL,
  project_id uuid NOT NULL,
  project_name text NOT NULL,
  user_id uuid NOT NULL,
  action text NOT NULL CHECK (action IN ('scans-uploaded', '360-images-uploaded', 'tags-uploaded', 'meshes-created')),
  count integer NOT NULL CHECK (count >= 0),
  PRIMARY KEY (subscription_id, day, user_id, project_id, action)
);

CREATE FUNCTION count_usage(p_day date, p_project uuid, p_user uuid, p_action text, p_count integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_user IS NULL OR p_count <= 0 THEN RETURN; END IF;
  INSERT INTO usage_counters (day, subscription_id, project_id, project_name, user_id, action, count)
    SELECT p_day, p.subscription_id, p.id, p.name, p_user, p_action, p_count FROM projects p WHERE p.id = p_project
    ON CONFLICT (subscription_id, day, user_id, project_id, action)
    DO UPDATE SET count = usage_counters.count + EXCLUDED.count, project_name = EXCLUDED.project_name;
END
$$;

-- A registered scan or geo-referenced (360) image.
CREATE FUNCTION usage_of_file() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.category = 'scan' THEN
    PERFORM count_usage((NEW.created_at AT TIME ZONE 'UTC')::date, NEW.project_id, NEW.created_by, 'scans-uploaded', 1);
  ELSIF NEW.category = 'geoImage' THEN
    PERFORM count_usage((NEW.created_at AT TIME ZONE 'UTC')::date, NEW.project_id, NEW.created_by, '360-images-uploaded', 1);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER files_usage AFTER INSERT ON files FOR EACH ROW EXECUTE FUNCTION usage_of_file();

-- Created tags, once per statement (a bulk of 50,000 tags is one grouped upsert).
CREATE FUNCTION usage_of_tags() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r record;
BEGIN
  FOR r IN
    SELECT (n.created_at AT TIME ZONE 'UTC')::date AS day, l.project_id, n.created_by, count(*)::integer AS c
    FROM new_tags n JOIN tag_lists l ON l.id = n.list_id
    WHERE n.created_by IS NOT NULL AND n.deleted_at IS NULL
    GROUP BY 1, 2, 3
  LOOP
    PERFORM count_usage(r.day, r.project_id, r.created_by, 'tags-uploaded', r.c);
  END LOOP;
  RETURN NULL;
END
$$;
CREATE TRIGGER tags_usage AFTER INSERT ON tags REFERENCING NEW TABLE AS new_tags FOR EACH STATEMENT EXECUTE FUNCTION usage_of_tags();

-- A mesh export that finished (the meshexport module's job, payload.projectId).
CREATE FUNCTION usage_of_mesh_job() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.kind = 'export-to-mesh' AND NEW.state = 'done' AND OLD.state <> 'done' THEN
    PERFORM count_usage((NEW.updated_at AT TIME ZONE 'UTC')::date, (NEW.payload->>'projectId')::uuid, NEW.created_by, 'meshes-created', 1);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER jobs_mesh_usage AFTER UPDATE OF state ON jobs FOR EACH ROW EXECUTE FUNCTION usage_of_mesh_job();
