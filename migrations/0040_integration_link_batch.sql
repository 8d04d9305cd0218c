-- The batch that creates the pending integration links at Konekt and Autodesk (docs/integrations.md
-- "Integration links"): each link's state, its attempts and when the next is due, the lease a
-- node holds while it asks the third party (claimed_until: another node takes it over after),
-- the third party's id for it and, for a failed link, why. Earlier links are pending, due now.
ALTER TABLE annotation_integration_links
  ADD COLUMN state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'created', 'failed')),
  ADD COLUMN attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  ADD COLUMN next_attempt_at timestamptz,
  ADD COLUMN claimed_until timestamptz,
  ADD COLUMN external_id text,
  ADD COLUMN failure text;
UPDATE annotation_integration_links SET next_attempt_at = created_at, state = CASE WHEN url IS NULL THEN 'pending' ELSE 'created' END;
ALTER TABLE annotation_integration_links ALTER COLUMN next_attempt_at SET NOT NULL;
CREATE INDEX annotation_integration_links_due ON annotation_integration_links (next_attempt_at) WHERE state = 'pending';
