// API 2: work zones and their copy, the workzones module (CONTRACT §6 "work zones"). BETA.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { api2Kit, type KitCore } from '../../../http/api2/route-kit.ts';
import * as S from '../../../http/api2/schemas.ts';
import type { Workzones } from '../core/workzones.ts';
import type { WorkzoneCopy } from '../core/copy.ts';
import { workzonePresenters } from './presenters.ts';
import * as P from './schemas.ts';

export function workzoneRoutes(root: FastifyInstance, core: KitCore & { workzones: Workzones; workzoneCopy: WorkzoneCopy }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, actor, errors, beta, refs } = api2Kit(core);
  const present = workzonePresenters(core);

  const A = '/accounts/:accountRef/projects';
  const PP = S.withParams('projectRef');
  const WP = S.withParams('projectRef', 'workzoneRef');

  // Work zones
  app.get(`${A}/:projectRef/workzones`, {
    schema: { summary: 'Work zones of a project', operationId: 'getWorkzones', ...beta('Workzone'), params: PP, response: { 200: Type.Array(P.Workzone), ...errors } },
  }, async (req) => (await core.workzones.listWorkzones(actor(req), ...refs(req))).map(present.workzone));

  app.post(`${A}/:projectRef/workzones`, {
    schema: { summary: 'Create a work zone under a parent (it inherits the parent’s members)', operationId: 'createWorkzone', ...beta('Workzone'), params: PP, body: P.WorkzoneCreate, response: { 201: P.Workzone, ...errors } },
  }, async (req, reply) => {
    const v = await core.workzones.createWorkzone(actor(req), ...refs(req), {
      name: req.body.name, description: req.body.description, parentRef: ref('workzone', req.body.parentWorkzoneId),
    });
    return reply.code(201).send(present.workzone(v));
  });

  app.get(`${A}/:projectRef/workzones/:workzoneRef`, {
    schema: { summary: 'A work zone', operationId: 'getWorkzone', ...beta('Workzone'), params: WP, response: { 200: P.Workzone, ...errors } },
  }, async (req) => present.workzone(await core.workzones.getWorkzone(actor(req), ...refs(req), ref('workzone', req.params.workzoneRef))));

  app.put(`${A}/:projectRef/workzones/:workzoneRef`, {
    schema: { summary: 'Overwrite a work zone', operationId: 'updateWorkzone', ...beta('Workzone'), params: WP, body: P.WorkzoneUpdate, response: { 200: P.Workzone, ...errors } },
  }, async (req) => present.workzone(await core.workzones.updateWorkzone(actor(req), ...refs(req), ref('workzone', req.params.workzoneRef), req.body)));

  app.delete(`${A}/:projectRef/workzones/:workzoneRef`, {
    schema: { summary: 'Delete a work zone and its subtree', operationId: 'deleteWorkzone', ...beta('Workzone'), params: WP, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.workzones.deleteWorkzone(actor(req), ...refs(req), ref('workzone', req.params.workzoneRef));
    return reply.code(204).send(null);
  });

  app.post(`${A}/:projectRef/workzones/:workzoneRef/copy`, {
    schema: {
      summary: 'Copy a work zone and its subtree into a new or existing project (asynchronous: 202, then an e-mail)', operationId: 'copyWorkzone',
      ...beta('Workzone'), params: WP, body: P.WorkzoneCopy,
      response: { 202: Type.Object({ jobId: Type.String(), state: Type.Literal('queued') }), ...errors },
    },
  }, async (req, reply) => {
    const b = req.body;
    const jobId = await core.workzoneCopy.requestCopy(actor(req), ...refs(req), ref('workzone', req.params.workzoneRef), {
      destinationName: b.destinationName,
      destinationProjectRef: b.destinationProject ? ref('project', b.destinationProject) : null,
      destinationWorkzoneRef: b.destinationWorkzone ? ref('workzone', b.destinationWorkzone) : null,
      destinationSubscriptionRef: b.destinationSubscription ? ref('subscription', b.destinationSubscription) : null,
    });
    return reply.code(202).send({ jobId, state: 'queued' as const });
  });

  // Our extension (docs/projects.md "Copy"): the vendor only mails the outcome; the console follows the job.
  app.get(`${A}/:projectRef/workzones/:workzoneRef/copy/:jobId`, {
    schema: {
      summary: 'The state of a copy you asked for (queued, running, done with where the copy is, failed with why)', operationId: 'getWorkzoneCopy',
      ...beta('Workzone'), params: S.withParams('projectRef', 'workzoneRef', 'jobId'),
      response: { 200: P.WorkzoneCopyStatus, ...errors },
    },
  }, async (req) =>
    present.copyStatus(await core.workzoneCopy.copyStatus(actor(req), ...refs(req), ref('workzone', req.params.workzoneRef), req.params.jobId)));
}
