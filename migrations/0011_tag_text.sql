-- Each tag's JSON text as each API generation writes it, stored when the tag changes, so a
-- whole-list read copies stored text instead of building 50,000 texts in the query
-- (docs/tags.md, "Reading whole lists"). text_key_N names the shape the text was written
-- with (a digest of it: the list's fields, the URN namespace, the code's shape); a row
-- whose key is not the reader's is written by the query as before, so a stale text is
-- never served. N is the API generation (1, 2).
ALTER TABLE tags
  ADD COLUMN text_1 text,
  ADD COLUMN text_key_1 text,
  ADD COLUMN text_2 text,
  ADD COLUMN text_key_2 text;
