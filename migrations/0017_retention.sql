-- Retention (janitor): finished jobs are deleted by age, in batches; this index finds
-- them without reading the queue's live rows.
CREATE INDEX jobs_finished ON jobs (updated_at) WHERE state IN ('done', 'failed');
