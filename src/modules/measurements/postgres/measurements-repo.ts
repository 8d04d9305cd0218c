// The measurements module's SQL (migration 0026).
import type { Sql } from '../../../adapters/postgres/sql.ts';
import type { MeasurementRecord, MeasurementsRepo } from '../core/ports.ts';

interface Row extends Omit<MeasurementRecord, 'points'> {
  points: [number, number, number][];
}

const COLS = `id, project_id AS "projectId", workzone_id AS "workzoneId", name, kind, points, camera_state AS "cameraState",
  scan_id AS "scanId", created_at AS "createdAt", created_by AS "createdBy", updated_at AS "updatedAt", updated_by AS "updatedBy"`;

const record = ({ points, ...r }: Row): MeasurementRecord => ({ ...r, points: points.map(([x, y, z]) => ({ x, y, z })) });
/** Points as [[x, y, z], …]: a third of the bytes of objects, for up to 1000 points. */
const pointsJson = (m: Pick<MeasurementRecord, 'points'>) => JSON.stringify(m.points.map((p) => [p.x, p.y, p.z]));

export function measurementsRepo(sql: Sql): MeasurementsRepo {
  return {
    async byId(projectId, id) {
      const rows = await sql.query<Row>(`SELECT ${COLS} FROM measurements WHERE project_id = $1 AND id = $2`, [projectId, id]);
      return rows[0] ? record(rows[0]) : null;
    },
    async list(projectId) {
      return (await sql.query<Row>(`SELECT ${COLS} FROM measurements WHERE project_id = $1 ORDER BY created_at, id`, [projectId])).map(record);
    },
    async count(projectId) {
      return (await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM measurements WHERE project_id = $1', [projectId]))[0]!.n;
    },
    async insert(m) {
      await sql.query(
        `INSERT INTO measurements (id, project_id, workzone_id, name, kind, points, camera_state, scan_id, created_at, created_by, updated_at, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10, $9, $10)`,
        [m.id, m.projectId, m.workzoneId, m.name, m.kind, pointsJson(m), m.cameraState, m.scanId, m.createdAt, m.createdBy],
      );
    },
    async update(id, f, by, now) {
      await sql.query(
        `UPDATE measurements SET workzone_id = $2, name = $3, kind = $4, points = $5::jsonb, camera_state = $6, scan_id = $7, updated_at = $8, updated_by = $9
         WHERE id = $1`,
        [id, f.workzoneId, f.name, f.kind, pointsJson(f), f.cameraState, f.scanId, now, by],
      );
    },
    async remove(id) {
      await sql.query('DELETE FROM measurements WHERE id = $1', [id]);
    },
  };
}
