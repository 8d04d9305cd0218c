// The annotations and measurements repositories on every engine: a record written and read
// back field for field (dates as YYYY-MM-DD, JSON fields, assignees in their order), a PUT
// that replaces assignees, numbers never reused after a deletion, comments in order and gone
// with their annotation, measurement points kept as given.
import { describe, test, before } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { suiteStore } from '../support/suite-store.ts';
import { ENGINES } from '../support/database.ts';
import type { AnnotationRecord } from '../../src/modules/annotations/index.ts';
import { annotationsRepo } from '../../src/modules/annotations/postgres/annotations-repo.ts';
import { measurementsRepo } from '../../src/modules/measurements/postgres/measurements-repo.ts';

const T0 = new Date('2026-03-01T10:00:00.000Z');

for (const engine of ENGINES) {
  describe(`annotations and measurements repositories on ${engine}`, () => {
    const suite = suiteStore(engine);
    // The modules' repositories, bound to the pool as the store binds them (src/modules/<m>/module.ts).
    const mine = { get annotations() { return annotationsRepo(suite.db.sql); }, get measurements() { return measurementsRepo(suite.db.sql); } };
    const uuid = (): string => crypto.randomUUID();
    const user = uuid(), other = uuid(), account = uuid(), sub = uuid(), project = uuid(), zone = uuid();

    before(async () => {
      await suite.store.transaction(async (tx) => {
        for (const id of [user, other]) {
          await tx.users.insert({ id, email: `${id}@t.test`, firstName: 'T', lastName: 'T', company: '', title: '', passwordHash: null, invitedBy: null, invitedAt: null }, T0);
        }
        await tx.accounts.insert({ id: account, name: `A ${account}`, ownerId: user, createdBy: user }, T0);
        await tx.subscriptions.insert({
          id: sub, accountId: account, name: 'S', isTrial: false, isVa: false, isActive: true, scanCapacity: 1, tagCapacity: 1,
          geoImageCapacity: 1, start: null, end: null, inviteAccountOwnerInNewProjects: false,
        }, T0);
        await tx.projects.insert({
          id: project, accountId: account, subscriptionId: sub, name: 'P', description: '', ownerId: user, location: null, spatialReference: null,
          region: 'default', isDemo: false, rootWorkzoneId: zone, coverBlobName: null, createdAt: T0, createdBy: user,
        });
        await tx.workzones.insert({ id: zone, projectId: project, parentId: null, name: 'P', description: '', coverBlobName: null, createdAt: T0, createdBy: user });
      });
    });

    const annotation = (number: number, extra: Partial<AnnotationRecord> = {}): AnnotationRecord => ({
      id: crypto.randomUUID(), projectId: project, workzoneId: zone, number, annotationType: 'Issue', title: 'T', description: '<b>d</b>',
      dueDate: '2027-12-31', priority: 10, position: { x: 1.25, y: -2, z: 1e-9 }, normal: null, imgBlobName: null,
      savedView: { type: 'viewpoint', nested: { a: [1, 2] } }, modelElementGUIDs: ['g1'], labels: ['a', 'b'], assignedTo: [other, user],
      createdAt: T0, createdBy: user, updatedAt: T0, updatedBy: user, ...extra,
    });

    test('an annotation reads back as written; a PUT replaces its fields and its assignees', async () => {
      const a = annotation(await mine.annotations.nextNumber(project));
      await mine.annotations.insert(a);
      assert.deepEqual(await mine.annotations.byId(project, a.id), a);
      const { id: _i, projectId: _p, number: _n, createdAt: _c, createdBy: _b, updatedAt: _u, updatedBy: _v, ...fields } = a;
      const later = new Date(T0.getTime() + 1000);
      await mine.annotations.update(a.id, { ...fields, dueDate: null, normal: { x: 0, y: 0, z: 1 }, assignedTo: [user], labels: [] }, other, later);
      const b = (await mine.annotations.byId(project, a.id))!;
      assert.deepEqual([b.dueDate, b.normal, b.assignedTo, b.labels, b.updatedBy, b.updatedAt], [null, { x: 0, y: 0, z: 1 }, [user], [], other, later]);
      assert.equal(await mine.annotations.byId(crypto.randomUUID(), a.id), null);
    });

    test('numbers are never reused after a deletion; comments come in order and go with their annotation', async () => {
      const first = await mine.annotations.nextNumber(project);
      const a = annotation(first, { assignedTo: [] });
      await mine.annotations.insert(a);
      await mine.annotations.remove(a.id);
      assert.equal(await mine.annotations.nextNumber(project), first + 1);
      const b = annotation(first + 2);
      await mine.annotations.insert(b);
      for (const [i, text] of ['one', 'two'].entries()) {
        await mine.annotations.insertComment({ id: crypto.randomUUID(), annotationId: b.id, description: text, createdAt: new Date(T0.getTime() + i), createdBy: user });
      }
      assert.deepEqual((await mine.annotations.comments([b.id])).map((c) => c.description), ['one', 'two']);
      assert.deepEqual(await mine.annotations.comments([]), []);
      const count = await mine.annotations.count(project);
      await mine.annotations.remove(b.id);
      assert.equal(await mine.annotations.count(project), count - 1);
      assert.deepEqual(await mine.annotations.comments([b.id]), []);
    });

    test('a measurement keeps its points as given; update and remove', async () => {
      const id = crypto.randomUUID();
      const points = [{ x: 0.1, y: -2.5, z: 1e6 }, { x: 3, y: 4, z: 5 }, { x: -1, y: 0, z: 0 }];
      await mine.measurements.insert({
        id, projectId: project, workzoneId: zone, name: 'M', kind: 'area', points, cameraState: null, scanId: null,
        createdAt: T0, createdBy: user, updatedAt: T0, updatedBy: user,
      });
      assert.deepEqual((await mine.measurements.byId(project, id))!.points, points);
      await mine.measurements.update(id, { workzoneId: zone, name: 'N', kind: 'distance', points: points.slice(0, 2), cameraState: '{}', scanId: null }, other, T0);
      const m = (await mine.measurements.list(project)).find((x) => x.id === id)!;
      assert.deepEqual([m.name, m.kind, m.points.length, m.cameraState, m.updatedBy], ['N', 'distance', 2, '{}', other]);
      await mine.measurements.remove(id);
      assert.equal(await mine.measurements.byId(project, id), null);
      assert.equal(await mine.measurements.count(project), 0);
    });
  });
}
