-- A share link may limit what its sessions see of the shared point clouds to a box (issue 31,
-- our extension `boxLimit` on the vendor's ShareLink; docs/share-links.md, docs/decisions.md):
-- {"min": [x, y, z], "max": [x, y, z]} in the clouds' coordinates, NULL for no limit. Nodes of
-- a converted cloud wholly outside the box are refused, boundary nodes filtered on the server.
ALTER TABLE share_links ADD COLUMN box_limit jsonb;
