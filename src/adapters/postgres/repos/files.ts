// What of the files module's SQL (src/modules/files/postgres/files-repo.ts) the kernel's
// adapters and other modules' SQL share: a file row's columns (the connect jobs' files join
// them) and the sweeper's lock (the snapshot engine takes it to stop the sweep).
export const F_COLS = `id, api1_id AS "api1Id", project_id AS "projectId", workzone_id AS "workzoneId", category,
  format_id AS "formatId", name, extension, size::float8 AS size, md5, blob_name AS "blobName", translation, rotation, scale,
  created_at AS "createdAt", created_by AS "createdBy", updated_at AS "updatedAt", updated_by AS "updatedBy",
  imported_at AS "importedAt"`;

/** Held by the node sweeping expired uploads (the janitor holds 727274003). */
export const SWEEPER_LOCK = 727_274_004;
