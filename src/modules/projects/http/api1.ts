// API 1: projects (find, get, the subscription change), the projects module (CONTRACT §6).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../../http/auth.ts';
import { api1RefParser as ref } from '../../../http/refs.ts';
import { AccountParams, Api1Error, withParams } from '../../../http/api1/schemas.ts';
import type { ProjectDetailsService } from '../core/project-details.ts';
import * as S from './api1-schemas.ts';
import { api1ProjectDetails as projectDetails } from './presenters.ts';

export function projectRoutes(root: FastifyInstance, core: { projectDetails: ProjectDetailsService }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const actor = actorOf;
  const errors = { '4xx': Api1Error };
  const PP = withParams('projectId');

  app.get('/accounts/:accountId/projects', {
    schema: {
      summary: 'Find projects (optionally the one owning a work zone)', operationId: 'findProjects', tags: ['projects'],
      params: AccountParams, querystring: Type.Object({ workzoneId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }),
      response: { 200: Type.Array(S.Project), ...errors },
    },
  }, async (req) => {
    const workzoneRef = req.query.workzoneId ? ref('workzone', req.query.workzoneId) : undefined;
    return (await core.projectDetails.findProjects(actor(req), ref('account', req.params.accountId), workzoneRef)).map(projectDetails);
  });

  app.get('/accounts/:accountId/projects/:projectId', {
    schema: { summary: 'Get project', operationId: 'getProject', tags: ['projects'], params: PP, response: { 200: S.Project, ...errors } },
  }, async (req) => projectDetails(await core.projectDetails.getProjectDetails(actor(req), ref('account', req.params.accountId), ref('project', req.params.projectId))));

  const Op = Type.Object({ op: Type.String({ maxLength: 32 }), path: Type.String({ maxLength: 200 }), value: Type.String({ maxLength: 200 }) }, { additionalProperties: false });
  app.patch('/accounts/:accountId/projects/:projectId', {
    schema: {
      summary: 'Modify the project subscription', operationId: 'modifyProjectSubscription', tags: ['projects'], params: PP,
      body: Type.Array(Op, { minItems: 1, maxItems: 10 }),
      response: { 200: S.Project, 400: Type.Union([Type.Object({ status: Type.Integer(), type: Type.String() }), Api1Error]), ...errors },
    },
  }, async (req, reply) => {
    const bad = req.body.find((o) => o.op !== 'replace');
    // The one API 1 response shaped {status, type} (spec "Modify project subscription").
    if (bad) return reply.code(400).send({ status: 400, type: `Unsupported op "${bad.op.slice(0, 32)}": only "replace" is allowed` });
    const result = await core.projectDetails.replaceSubscription(actor(req), ref('account', req.params.accountId), ref('project', req.params.projectId),
      req.body.map((o) => ({ from: o.path, to: o.value })), (written) => ref('subscription', written));
    if ('refused' in result) return reply.code(400).send({ status: 400, type: `path must be the project's current subscription id` });
    return projectDetails(result.details);
  });
}
