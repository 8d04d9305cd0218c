// The annotations module's SQL (migration 0026): plain statements bound to an executor.
import type { Sql } from '../../../adapters/postgres/sql.ts';
import type { AnnotationCommentRecord, AnnotationFields, AnnotationIntegrationLink, AnnotationRecord, AnnotationsRepo, Point3D } from '../core/ports.ts';

interface Row {
  id: string; projectId: string; workzoneId: string; number: number; annotationType: AnnotationRecord['annotationType'];
  title: string; description: string | null; dueDate: string | null; priority: number | null;
  px: number; py: number; pz: number; nx: number | null; ny: number | null; nz: number | null;
  imgBlobName: string | null; savedView: Record<string, unknown> | null; modelElementGUIDs: string[] | null; labels: string[];
  assignedTo: string[] | null;
  createdAt: Date; createdBy: string | null; updatedAt: Date; updatedBy: string | null;
}

// Assignees in the order given, as one array per annotation (no row per assignee to stitch).
const COLS = `a.id, a.project_id AS "projectId", a.workzone_id AS "workzoneId", a.number, a.annotation_type AS "annotationType",
  a.title, a.description, a.due_date::text AS "dueDate", a.priority,
  a.position_x AS px, a.position_y AS py, a.position_z AS pz, a.normal_x AS nx, a.normal_y AS ny, a.normal_z AS nz,
  a.img_blob_name AS "imgBlobName", a.saved_view AS "savedView", a.model_element_guids AS "modelElementGUIDs", a.labels,
  (SELECT array_agg(s.user_id::text ORDER BY s.position) FROM annotation_assignees s WHERE s.annotation_id = a.id) AS "assignedTo",
  a.created_at AS "createdAt", a.created_by AS "createdBy", a.updated_at AS "updatedAt", a.updated_by AS "updatedBy"`;

const point = (x: number | null, y: number | null, z: number | null): Point3D | null =>
  x === null || y === null || z === null ? null : { x, y, z };

function record(r: Row): AnnotationRecord {
  return {
    id: r.id, projectId: r.projectId, workzoneId: r.workzoneId, number: r.number, annotationType: r.annotationType, title: r.title,
    description: r.description, dueDate: r.dueDate, priority: r.priority, position: point(r.px, r.py, r.pz)!, normal: point(r.nx, r.ny, r.nz),
    imgBlobName: r.imgBlobName, savedView: r.savedView, modelElementGUIDs: r.modelElementGUIDs, labels: r.labels, assignedTo: r.assignedTo ?? [],
    createdAt: r.createdAt, createdBy: r.createdBy, updatedAt: r.updatedAt, updatedBy: r.updatedBy,
  };
}

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/** The columns a create and a PUT write, from $2 on ($1 is the id). */
const fieldParams = (f: AnnotationFields): unknown[] => [
  f.workzoneId, f.annotationType, f.title, f.description, f.dueDate, f.priority,
  f.position.x, f.position.y, f.position.z, f.normal?.x ?? null, f.normal?.y ?? null, f.normal?.z ?? null,
  f.imgBlobName, json(f.savedView), json(f.modelElementGUIDs), JSON.stringify(f.labels),
];

export function annotationsRepo(sql: Sql): AnnotationsRepo {
  async function setAssignees(id: string, userIds: string[]): Promise<void> {
    await sql.query('DELETE FROM annotation_assignees WHERE annotation_id = $1', [id]);
    if (!userIds.length) return;
    await sql.query(
      `INSERT INTO annotation_assignees (annotation_id, user_id, position)
       SELECT $1, u.id::uuid, u.ord FROM unnest($2::text[]) WITH ORDINALITY AS u(id, ord)`,
      [id, userIds],
    );
  }

  return {
    async byId(projectId, id) {
      const rows = await sql.query<Row>(`SELECT ${COLS} FROM annotations a WHERE a.project_id = $1 AND a.id = $2`, [projectId, id]);
      return rows[0] ? record(rows[0]) : null;
    },
    async list(projectId) {
      return (await sql.query<Row>(`SELECT ${COLS} FROM annotations a WHERE a.project_id = $1 ORDER BY a.number`, [projectId])).map(record);
    },
    async count(projectId) {
      const rows = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM annotations WHERE project_id = $1', [projectId]);
      return rows[0]!.n;
    },
    async nextNumber(projectId) {
      const rows = await sql.query<{ n: number }>(
        `INSERT INTO annotation_numbers (project_id, last_number) VALUES ($1, 1)
         ON CONFLICT (project_id) DO UPDATE SET last_number = annotation_numbers.last_number + 1
         RETURNING last_number AS n`,
        [projectId],
      );
      return rows[0]!.n;
    },
    async insert(a) {
      await sql.query(
        `INSERT INTO annotations (id, workzone_id, annotation_type, title, description, due_date, priority,
           position_x, position_y, position_z, normal_x, normal_y, normal_z, img_blob_name, saved_view, model_element_guids, labels,
           project_id, number, created_at, created_by, updated_at, updated_by)
         VALUES ($1, $2, $3, $4, $5, $6::date, $7, $8, $9, $10, $11, $12, $13, $14, $15::jsonb, $16::jsonb, $17::jsonb, $18, $19, $20, $21, $20, $21)`,
        [a.id, ...fieldParams(a), a.projectId, a.number, a.createdAt, a.createdBy],
      );
      await setAssignees(a.id, a.assignedTo);
    },
    async update(id, f, by, now) {
      await sql.query(
        `UPDATE annotations SET workzone_id = $2, annotation_type = $3, title = $4, description = $5, due_date = $6::date, priority = $7,
           position_x = $8, position_y = $9, position_z = $10, normal_x = $11, normal_y = $12, normal_z = $13, img_blob_name = $14,
           saved_view = $15::jsonb, model_element_guids = $16::jsonb, labels = $17::jsonb, updated_at = $18, updated_by = $19
         WHERE id = $1`,
        [id, ...fieldParams(f), now, by],
      );
      await setAssignees(id, f.assignedTo);
    },
    async remove(id) {
      await sql.query('DELETE FROM annotations WHERE id = $1', [id]);
    },
    async comments(annotationIds) {
      if (!annotationIds.length) return [];
      return sql.query<AnnotationCommentRecord>(
        `SELECT id, annotation_id AS "annotationId", description, created_at AS "createdAt", created_by AS "createdBy"
         FROM annotation_comments WHERE annotation_id = ANY($1::uuid[]) ORDER BY created_at, id`,
        [annotationIds],
      );
    },
    async integrationLinks(annotationIds) {
      if (!annotationIds.length) return [];
      // The links' table is the integrations module's (migration 0029); a link belongs to its
      // annotation (deleted with it), and the annotation's `integrations` field shows them.
      return sql.query<AnnotationIntegrationLink>(
        `SELECT annotation_id AS "annotationId", integration_type AS type, url, state AS status, failure
         FROM annotation_integration_links WHERE annotation_id = ANY($1::uuid[]) ORDER BY annotation_id, integration_type`,
        [annotationIds],
      );
    },
    async insertComment(c) {
      await sql.query(
        'INSERT INTO annotation_comments (id, annotation_id, description, created_at, created_by) VALUES ($1, $2, $3, $4, $5)',
        [c.id, c.annotationId, c.description, c.createdAt, c.createdBy],
      );
    },
  };
}
