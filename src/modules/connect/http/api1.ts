// API 1: start connect import and export jobs (CONTRACT §6 "connect"); the jobs
// themselves are served at /connect/{slug} (job-surface.ts).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { actorOf } from '../../../http/auth.ts';
import type { ConnectJobs } from '../core/connect-jobs.ts';
import { api1RefParser as ref } from '../../../http/refs.ts';
import * as S from '../../../http/api1/schemas.ts';
import { absentBodyIsEmpty } from '../../../http/request-bodies.ts';

const Handle = Type.Object({ url: Type.String(), slug: Type.String() });
const Ids = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 10_000 });

export function connectRoutes(app: FastifyInstance, core: { connectJobs: ConnectJobs }): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const actor = actorOf;
  const errors = { '4xx': S.Api1Error };
  const WP = S.withParams('projectId', 'workzoneId');
  const path = '/accounts/:accountId/projects/:projectId/workzones/:workzoneId/connect';
  const refs = (p: { accountId: string; projectId: string; workzoneId: string }) =>
    [ref('account', p.accountId), ref('project', p.projectId), ref('workzone', p.workzoneId)] as const;

  r.post(`${path}/import`, {
    schema: {
      summary: 'Start a connect import into the work zone', operationId: 'startConnectImport', tags: ['connect'], params: WP,
      response: { 200: Handle, ...errors },
    },
  }, async (req) => core.connectJobs.startImport(actor(req), ...refs(req.params)));

  r.post(`${path}/export`, {
    // No body (or an empty one) means {}: every scan of the path zone's subtree (docs/connect.md).
    preValidation: absentBodyIsEmpty,
    schema: {
      summary: 'Start a connect export of scans (by id, or every scan of work zones)', operationId: 'startConnectExport', tags: ['connect'],
      params: WP, body: Type.Object({ scanIds: Type.Optional(Ids), workzoneIds: Type.Optional(Ids) }, { additionalProperties: false }),
      response: { 200: Handle, ...errors },
    },
  }, async (req) =>
    core.connectJobs.startExport(actor(req), ...refs(req.params), {
      scanRefs: req.body.scanIds?.map((id) => ref('file', id)),
      workzoneRefs: req.body.workzoneIds?.map((id) => ref('workzone', id)),
    }));
}
