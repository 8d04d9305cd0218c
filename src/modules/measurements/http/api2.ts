// API 2: measurements, the measurements module: the vendor's getMeasurements (BETA) and our
// extension's create, get, update and delete (docs/annotations.md "Measurements").
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { actorOf } from '../../../http/auth.ts';
import { api2Naming } from '../../../http/api2/naming.ts';
import * as S from '../../../http/api2/schemas.ts';
import type { MeasurementInput, Measurements } from '../index.ts';
import { measurementPresenters } from './presenters.ts';
import * as MeasurementSchemas from './schemas.ts';

export function measurementRoutes(root: FastifyInstance, use: { measurements: Measurements; config: { urnNamespace: string } }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, urn, refs, errors, beta } = api2Naming(use.config.urnNamespace);
  const present = measurementPresenters(urn);
  const base = '/accounts/:accountRef/projects/:projectRef/measurements';
  const projectParams = S.withParams('projectRef');
  const measurementParams = S.withParams('projectRef', 'measurementRef');
  const ours = { tags: ['Measurement (extension)'] };

  const input = (b: Static<typeof MeasurementSchemas.MeasurementWrite>): MeasurementInput => ({
    workzoneRef: ref('workzone', b.workzoneId), name: b.name, kind: b.kind, points: b.points,
    cameraState: b.cameraState ?? null, scanRef: b.scanId ? ref('file', b.scanId) : null,
  });

  app.get(base, {
    schema: { summary: 'Get Measurements', operationId: 'getMeasurements', ...beta('Measurement'), params: projectParams, response: { 200: Type.Array(MeasurementSchemas.Measurement), ...errors } },
  }, async (req) => (await use.measurements.listMeasurements(actorOf(req), ...refs(req))).map(present.measurement));

  app.post(base, {
    schema: { summary: 'Create a measurement (extension)', operationId: 'createMeasurement', ...ours, params: projectParams, body: MeasurementSchemas.MeasurementWrite, response: { 201: MeasurementSchemas.Measurement, ...errors } },
  }, async (req, reply) => reply.code(201).send(present.measurement(await use.measurements.createMeasurement(actorOf(req), ...refs(req), input(req.body)))));

  app.get(`${base}/:measurementRef`, {
    schema: { summary: 'A measurement (extension)', operationId: 'getMeasurement', ...ours, params: measurementParams, response: { 200: MeasurementSchemas.Measurement, ...errors } },
  }, async (req) => present.measurement(await use.measurements.getMeasurement(actorOf(req), ...refs(req), ref('measurement', req.params.measurementRef))));

  app.put(`${base}/:measurementRef`, {
    schema: { summary: 'Overwrite a measurement (extension)', operationId: 'updateMeasurement', ...ours, params: measurementParams, body: MeasurementSchemas.MeasurementWrite, response: { 200: MeasurementSchemas.Measurement, ...errors } },
  }, async (req) => present.measurement(await use.measurements.updateMeasurement(actorOf(req), ...refs(req), ref('measurement', req.params.measurementRef), input(req.body))));

  app.delete(`${base}/:measurementRef`, {
    schema: { summary: 'Delete a measurement (extension)', operationId: 'deleteMeasurement', ...ours, params: measurementParams, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await use.measurements.deleteMeasurement(actorOf(req), ...refs(req), ref('measurement', req.params.measurementRef));
    return reply.code(204).send(null);
  });
}
