// API 2: measurements, the measurements module: the vendor's getMeasurements (BETA) and our
// extension's create, get, update and delete (docs/annotations.md "Measurements").
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { formatUrn, type UrnType } from '../../../core/ids/urn.ts';
import { actorOf } from '../../../http/auth.ts';
import { api2RefParser } from '../../../http/refs.ts';
import * as S from '../../../http/api2/schemas.ts';
import type { MeasurementInput, Measurements } from '../index.ts';
import { measurementPresenters } from './presenters.ts';
import * as M from './schemas.ts';

export function measurementRoutes(root: FastifyInstance, use: { measurements: Measurements; config: { urnNamespace: string } }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const ns = use.config.urnNamespace;
  const ref = api2RefParser(ns);
  const urn = (type: UrnType, id: string) => formatUrn(ns, type, id);
  const refs = (req: { params: { accountRef: string; projectRef: string } }) => [ref('account', req.params.accountRef), ref('project', req.params.projectRef)] as const;
  const errors = { '4xx': S.Problem };
  const beta = (t: string) => ({ tags: ['BETA', t] });
  const present = measurementPresenters(urn);
  const P = '/accounts/:accountRef/projects/:projectRef/measurements';
  const PP = S.withParams('projectRef');
  const MP = S.withParams('projectRef', 'measurementRef');
  const ours = { tags: ['Measurement (extension)'] };

  const input = (b: Static<typeof M.MeasurementWrite>): MeasurementInput => ({
    workzoneRef: ref('workzone', b.workzoneId), name: b.name, kind: b.kind, points: b.points,
    cameraState: b.cameraState ?? null, scanRef: b.scanId ? ref('file', b.scanId) : null,
  });

  app.get(P, {
    schema: { summary: 'Get Measurements', operationId: 'getMeasurements', ...beta('Measurement'), params: PP, response: { 200: Type.Array(M.Measurement), ...errors } },
  }, async (req) => (await use.measurements.listMeasurements(actorOf(req), ...refs(req))).map(present.measurement));

  app.post(P, {
    schema: { summary: 'Create a measurement (extension)', operationId: 'createMeasurement', ...ours, params: PP, body: M.MeasurementWrite, response: { 201: M.Measurement, ...errors } },
  }, async (req, reply) => reply.code(201).send(present.measurement(await use.measurements.createMeasurement(actorOf(req), ...refs(req), input(req.body)))));

  app.get(`${P}/:measurementRef`, {
    schema: { summary: 'A measurement (extension)', operationId: 'getMeasurement', ...ours, params: MP, response: { 200: M.Measurement, ...errors } },
  }, async (req) => present.measurement(await use.measurements.getMeasurement(actorOf(req), ...refs(req), ref('measurement', req.params.measurementRef))));

  app.put(`${P}/:measurementRef`, {
    schema: { summary: 'Overwrite a measurement (extension)', operationId: 'updateMeasurement', ...ours, params: MP, body: M.MeasurementWrite, response: { 200: M.Measurement, ...errors } },
  }, async (req) => present.measurement(await use.measurements.updateMeasurement(actorOf(req), ...refs(req), ref('measurement', req.params.measurementRef), input(req.body))));

  app.delete(`${P}/:measurementRef`, {
    schema: { summary: 'Delete a measurement (extension)', operationId: 'deleteMeasurement', ...ours, params: MP, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await use.measurements.deleteMeasurement(actorOf(req), ...refs(req), ref('measurement', req.params.measurementRef));
    return reply.code(204).send(null);
  });
}
