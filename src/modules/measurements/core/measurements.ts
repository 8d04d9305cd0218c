// Measurements (vendor "Measurement", BETA). The vendor lists them (getMeasurements) and makes
// them in its viewer; here creation, update and deletion are our documented extension
// (docs/annotations.md "Measurements"): distance, polyline, area and height measurements whose
// points are in project coordinates, with the vendor's fields computed from them (geometry.ts).
//
// Permissions: `workzone:measurements:read` on at least one zone of the project to list (403
// list-measurements-forbidden otherwise), and only the measurements of those zones come back;
// `workzone:measurements:write` on the zone to create, change or delete (both zones for a move).
import { sliceOf, storeUseOf, type SliceOf } from '../../../core/ports/store-slices.ts';
import { projectEventOf, subjectOf } from '../../../core/events/domain-events.ts';
import { DomainError, invalidInput, notFound } from '../../../core/errors.ts';
import { type EntityRef, refValue } from '../../../core/ids/urn.ts';
import { refUuid } from '../../../core/ids/refs.ts';
import type { Clock } from '../../../core/ports/clock.ts';
import type { Ids } from '../../../core/ports/ids.ts';
import type { Repos } from '../../../core/ports/repositories.ts';
import type { FilesRepos } from '../../../core/ports/file-repositories.ts';
import { requirePermission, type Actor } from '../../../core/permissions/authorizer.ts';
import { condition } from '../../../core/permissions/refusal-conditions.ts';
import { type ProjectAccess, type ProjectScope, requireMember } from '../../projects/index.ts';
import type { Point3D } from '../../annotations/index.ts';
import { MEASUREMENT_LIMITS, checkPoints, measure, type Measured } from './geometry.ts';
import type { MeasurementFields, MeasurementKind, MeasurementRecord, MeasurementsRepos } from './ports.ts';
import './events.ts';
import './errors.ts';
import type { WorkzonesRepos } from '../../workzones/index.ts';

export interface MeasurementView {
  measurement: MeasurementRecord;
  measured: Measured;
  accountId: string;
}

export interface MeasurementInput {
  workzoneRef: EntityRef;
  name: string;
  kind: MeasurementKind;
  points: Point3D[];
  cameraState: string | null;
  scanRef: EntityRef | null;
}

/** The measurements of a project: the vendor's listing and our writes. */
export interface Measurements {
  /** The measurements of the zones where the caller holds `workzone:measurements:read` (at least one, else 403). */
  listMeasurements(actor: Actor, a: EntityRef, p: EntityRef): Promise<MeasurementView[]>;
  /** One measurement: `workzone:measurements:read` on its zone. */
  getMeasurement(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef): Promise<MeasurementView>;
  /** Creates one (`workzone:measurements:write` on the zone). */
  createMeasurement(actor: Actor, a: EntityRef, p: EntityRef, input: MeasurementInput): Promise<MeasurementView>;
  /** PUT: overwrites every field; a new workzoneId moves it (write on both zones). */
  updateMeasurement(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef, input: MeasurementInput): Promise<MeasurementView>;
  /** Deletes one. */
  deleteMeasurement(actor: Actor, a: EntityRef, p: EntityRef, ref: EntityRef): Promise<void>;
}

/** What it reads of the store, and what its transactions are handed (src/core/ports/store-slices.ts). */
export const MEASUREMENTS_STORE = storeUseOf<Repos & FilesRepos & WorkzonesRepos & MeasurementsRepos>()({ reads: ['files', 'measurements', 'workzones'], writes: ['events', 'locks', 'measurements'] });

export function createMeasurements(deps: { store: SliceOf<typeof MEASUREMENTS_STORE, Repos & FilesRepos & WorkzonesRepos & MeasurementsRepos>; clock: Clock; ids: Ids; access: ProjectAccess }): Measurements {
  const { clock, ids, access } = deps;
  const store = sliceOf(deps.store, MEASUREMENTS_STORE);

  const view = (scope: ProjectScope, m: MeasurementRecord): MeasurementView => ({
    measurement: m, measured: measure(m.kind, m.points), accountId: scope.account.account.id,
  });

  async function measurementIn(scope: ProjectScope, ref: EntityRef): Promise<MeasurementRecord> {
    const id = refUuid(ref);
    const m = id ? await store.repos.measurements.byId(scope.project.id, id) : null;
    if (!m) throw notFound('measurement', refValue(ref));
    return m;
  }

  async function zoneId(scope: ProjectScope, ref: EntityRef): Promise<string> {
    const w = await store.repos.workzones.byRef(scope.project.id, ref);
    if (!w) throw notFound('workzone', refValue(ref));
    return w.id;
  }

  async function fieldsOf(scope: ProjectScope, input: MeasurementInput, workzoneId: string): Promise<MeasurementFields> {
    const name = input.name.trim();
    if (!name || name.length > MEASUREMENT_LIMITS.nameChars) {
      throw invalidInput(`name holds 1 to ${MEASUREMENT_LIMITS.nameChars} characters`, { field: 'name' });
    }
    if (input.cameraState && input.cameraState.length > MEASUREMENT_LIMITS.cameraStateChars) {
      throw invalidInput(`cameraState holds at most ${MEASUREMENT_LIMITS.cameraStateChars} characters`, { field: 'cameraState' });
    }
    checkPoints(input.kind, input.points);
    let scanId: string | null = null;
    if (input.scanRef) {
      const scan = await store.repos.files.byRef(scope.project.id, input.scanRef);
      if (!scan) throw invalidInput(`scanId: no file ${refValue(input.scanRef)} in the project`, { field: 'scanId' });
      scanId = scan.id;
    }
    return { workzoneId, name, kind: input.kind, points: input.points.map(({ x, y, z }) => ({ x, y, z })), cameraState: input.cameraState, scanId };
  }

  return {
    async listMeasurements(actor, a, p) {
      const scope = await access.project(actor, a, p, { record: false });
      requireMember(scope);
      const zones = await store.repos.workzones.listByProject(scope.project.id);
      const readable = new Set(zones.filter((z) => scope.workzone(z.id).has('workzone:measurements:read')).map((z) => z.id));
      requirePermission(condition('on-some-workzone', readable.size > 0), 'workzone:measurements:read', 'list-measurements-forbidden');
      return (await store.repos.measurements.list(scope.project.id)).filter((m) => readable.has(m.workzoneId)).map((m) => view(scope, m));
    },

    async getMeasurement(actor, a, p, ref) {
      const scope = await access.project(actor, a, p);
      requireMember(scope);
      const m = await measurementIn(scope, ref);
      requirePermission(scope.workzone(m.workzoneId), 'workzone:measurements:read', 'list-measurements-forbidden');
      return view(scope, m);
    },

    async createMeasurement(actor, a, p, input) {
      const scope = await access.project(actor, a, p);
      const w = await zoneId(scope, input.workzoneRef);
      requirePermission(scope.workzone(w), 'workzone:measurements:write', 'create-measurement-forbidden');
      const fields = await fieldsOf(scope, input, w);
      const now = clock.now();
      const record: MeasurementRecord = { ...fields, id: ids.uuid(), projectId: scope.project.id, createdAt: now, createdBy: actor.userId, updatedAt: now, updatedBy: actor.userId };
      await store.transaction(async (repos) => {
        await repos.locks.exclusive([`measurements:${scope.project.id}`]);
        if ((await repos.measurements.count(scope.project.id)) >= MEASUREMENT_LIMITS.perProject) {
          throw new DomainError('invalid', 'invalid-input', `A project holds at most ${MEASUREMENT_LIMITS.perProject} measurements`, { maxMeasurements: MEASUREMENT_LIMITS.perProject });
        }
        await repos.measurements.insert(record);
        await repos.events.publish(
          projectEventOf('measurement.created', scope.project, subjectOf('measurement', record.id), { measurementId: record.id, workzoneId: w, kind: fields.kind }),
          now,
        );
      });
      return view(scope, record);
    },

    async updateMeasurement(actor, a, p, ref, input) {
      const scope = await access.project(actor, a, p);
      const current = await measurementIn(scope, ref);
      requirePermission(scope.workzone(current.workzoneId), 'workzone:measurements:write', 'update-measurement-forbidden');
      const w = await zoneId(scope, input.workzoneRef);
      if (w !== current.workzoneId) requirePermission(scope.workzone(w), 'workzone:measurements:write', 'update-measurement-forbidden');
      const fields = await fieldsOf(scope, input, w);
      const now = clock.now();
      await store.transaction(async (repos) => {
        await repos.measurements.update(current.id, fields, actor.userId, now);
        await repos.events.publish(
          projectEventOf('measurement.updated', scope.project, subjectOf('measurement', current.id), { measurementId: current.id, workzoneId: w, kind: fields.kind }),
          now,
        );
      });
      return view(scope, { ...current, ...fields, updatedAt: now, updatedBy: actor.userId });
    },

    async deleteMeasurement(actor, a, p, ref) {
      const scope = await access.project(actor, a, p);
      const current = await measurementIn(scope, ref);
      requirePermission(scope.workzone(current.workzoneId), 'workzone:measurements:write', 'delete-measurement-forbidden');
      await store.transaction(async (repos) => {
        await repos.measurements.remove(current.id);
        await repos.events.publish(
          projectEventOf('measurement.deleted', scope.project, subjectOf('measurement', current.id), { measurementId: current.id, workzoneId: current.workzoneId }),
          clock.now(),
        );
      });
    },
  };
}
