-- Downloads in the usage report (docs/usage.md, issue 29): a signed download URL writes no
-- row a trigger could count, so the use cases that issue one (API 2 getBlob/getBlobs, a
-- connect export's file list, a share link's file) add to the counters themselves through
-- count_usage (migration 0030), outside any transaction. The actions join the counters'
-- check; earlier rows are untouched.
ALTER TABLE usage_counters DROP CONSTRAINT usage_counters_action_check;
ALTER TABLE usage_counters ADD CONSTRAINT usage_counters_action_check
  CHECK (action IN ('scans-uploaded', '360-images-uploaded', 'tags-uploaded', 'meshes-created', 'scans-downloaded', 'crops-downloaded', 'tags-downloaded'));
