// The connect jobs' own surface (CONTRACT §6 "A connect job is real"): GET /connect/{slug}
// shows the job to a bearer of a member's token; an import job also takes the
// sign (POST) and register (PUT) steps of the upload flow at /connect/{slug}/files.
// Errors are problem+json, like every surface of ours outside /api.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { api1IdOf } from '../../../core/ids/api1-id.ts';
import type { ConnectJobs, ConnectJobView } from '../core/connect-jobs.ts';
import { actorOf, requireAuthentication, type AuthenticationUse } from '../../../http/auth.ts';
import { FileSchemas as F } from '../../files/http/index.ts';

const Job = Type.Object({
  slug: Type.String(),
  kind: Type.Union([Type.Literal('import'), Type.Literal('export')]),
  state: Type.String(),
  projectId: Type.String(),
  workzoneId: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  files: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), size: Type.Integer(), url: Type.String() })),
});
const SlugParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 64 }) });
const Problem = Type.Object({ status: Type.Integer(), title: Type.String() }, { additionalProperties: true });

const present = (v: ConnectJobView) => ({
  slug: v.job.slug,
  kind: v.job.kind,
  state: v.job.state,
  projectId: api1IdOf(v.job.projectId),
  workzoneId: api1IdOf(v.job.workzoneId),
  createdAt: v.job.createdAt.toISOString(),
  files: v.files.map(({ file, url }) => ({ id: file.api1Id, name: file.name, size: file.size, url })),
});

export const connectJobRoutes =
  (core: AuthenticationUse & { connectJobs: ConnectJobs }): FastifyPluginAsync =>
  async (root) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    // Rate limited like API 1 and API 2 (docs/security.md "Rate limits"): the address before the token, the user after it.
    requireAuthentication(app, core, { rateLimited: true });
    const actor = actorOf;
    const errors = { '4xx': Problem };

    app.get('/connect/:slug', {
      schema: { summary: 'A connect job: kind, state, scope and files with download URLs', operationId: 'getConnectJob', tags: ['connect'], params: SlugParams, response: { 200: Job, ...errors } },
    }, async (req) => present(await core.connectJobs.get(actor(req), req.params.slug)));

    app.post('/connect/:slug/files', {
      schema: { summary: 'Sign scan uploads into an import job', operationId: 'signConnectImport', tags: ['connect'], params: SlugParams, body: F.UploadItems, response: { 200: F.SignAnswer, ...errors } },
    }, async (req) => core.connectJobs.signImport(actor(req), req.params.slug, req.body));

    app.put('/connect/:slug/files', {
      schema: { summary: 'Register scans uploaded through an import job', operationId: 'registerConnectImport', tags: ['connect'], params: SlugParams, body: F.UploadItems, response: { 200: Type.Array(F.Registered), ...errors } },
    }, async (req) => core.connectJobs.registerImport(actor(req), req.params.slug, req.body));
  };
