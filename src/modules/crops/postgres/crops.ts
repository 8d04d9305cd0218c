// The crops module's SQL (table crops, migrations/).
import type { CropRecord, CropsRepo } from '../core/ports.ts';
import type { Sql } from '../../../adapters/postgres/sql.ts';
import { api1IdOf } from '../../../core/ids/api1-id.ts';
import { byRefClause } from '../../../adapters/postgres/repos/ref.ts';

const C_COLS = `id, api1_id AS "api1Id", project_id AS "projectId", workzone_id AS "workzoneId", name, crop,
  actual_crop AS "actualCrop", rotation, layers, camera_type AS "cameraType", camera_state AS "cameraState", scan,
  thumbnail_blob_name AS "thumbnailBlobName", oview, settings, created_at AS "createdAt", created_by AS "createdBy",
  updated_at AS "updatedAt", updated_by AS "updatedBy"`;

export function cropsRepo(sql: Sql): CropsRepo {
  return {
    async byRef(projectId, ref) {
      const [where, v] = byRefClause(ref);
      const rows = await sql.query<CropRecord>(`SELECT ${C_COLS} FROM crops WHERE project_id = $1 AND ${where}`, [projectId, v]);
      return rows[0] ?? null;
    },
    list: (projectId) => sql.query<CropRecord>(`SELECT ${C_COLS} FROM crops WHERE project_id = $1 ORDER BY created_at, id`, [projectId]),
    async insert(c) {
      await sql.query(
        `INSERT INTO crops (id, api1_id, project_id, workzone_id, name, crop, actual_crop, rotation, layers, camera_type,
           camera_state, scan, thumbnail_blob_name, oview, settings, created_at, created_by, updated_at, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $16, $17)`,
        [
          c.id, api1IdOf(c.id), c.projectId, c.workzoneId, c.name, c.crop, c.actualCrop, c.rotation, c.layers, c.cameraType,
          c.cameraState, c.scan, c.thumbnailBlobName, c.oview, c.settings, c.createdAt, c.createdBy,
        ],
      );
    },
    async update(id, c, by, now) {
      await sql.query(
        `UPDATE crops SET workzone_id = $2, name = $3, crop = $4, actual_crop = $5, rotation = $6, layers = $7, camera_type = $8,
           camera_state = $9, scan = $10, thumbnail_blob_name = $11, oview = $12, settings = $13, updated_at = $14, updated_by = $15
         WHERE id = $1`,
        [
          id, c.workzoneId, c.name, c.crop, c.actualCrop, c.rotation, c.layers, c.cameraType, c.cameraState, c.scan,
          c.thumbnailBlobName, c.oview, c.settings, now, by,
        ],
      );
    },
    async remove(id) {
      await sql.query('DELETE FROM crops WHERE id = $1', [id]);
    },
  };
}
