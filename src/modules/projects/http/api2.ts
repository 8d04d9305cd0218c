// API 2: projects, the projects module (CONTRACT §6 "projects"). BETA.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { KernelConfig } from '../../../kernel-config.ts';
import { api2Kit, type KitCore } from '../../../http/api2/route-kit.ts';
import { encodedBodies, sendEncoded } from '../../../http/encoded-bodies.ts';
import { AccountParams, withParams } from '../../../http/api2/schemas.ts';
import type { ProjectInput, Projects, ProjectView } from '../core/projects.ts';
import { projectPresenters } from './presenters.ts';
import * as P from './schemas.ts';

export function projectRoutes(root: FastifyInstance, core: KitCore & { config: Pick<KernelConfig, 'projectListCacheProjects'>; projects: Projects }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, actor, errors, beta, refs } = api2Kit(core);
  const present = projectPresenters(core);
  const want = (q: { countScans?: boolean; countTags?: boolean; countWorkzones?: boolean }) => ({
    scans: q.countScans ?? true,
    tags: q.countTags ?? true,
    workzones: q.countWorkzones ?? true,
  });

  /** PROJECT_LIST_CACHE_PROJECTS > 0: lists are kept in the core, and their bodies here. */
  const listsCached = core.config.projectListCacheProjects > 0;
  const listBodies = encodedBodies<ProjectView[]>();

  const A = '/accounts/:accountRef/projects';
  const PP = withParams('projectRef');

  app.get(A, {
    schema: { summary: 'Active and deleted projects of the account the caller sees', operationId: 'getProjects', ...beta('Project'), params: AccountParams, querystring: P.CountQuery, response: { 200: Type.Array(P.Project), ...errors } },
  }, async (req, reply) => {
    const views = await core.projects.listProjects(actor(req), ref('account', req.params.accountRef), want(req.query));
    if (!listsCached) return views.map(present.project);
    // The core answers the same array while the caller's list holds: its body is serialised
    // (by this route's schema, so the bytes are the uncached path's), hashed and gzipped once.
    // Nothing in it ages by itself: coverUrl is the stable 302 link, not a signed URL.
    return sendEncoded(req, reply, listBodies.of(views, () => reply.serialize(views.map(present.project)) as string));
  });

  app.post(A, {
    schema: { summary: 'Create a project (with its root work zone)', operationId: 'createProject', ...beta('Project'), params: AccountParams, body: P.ProjectCreate, response: { 201: P.Project, ...errors } },
  }, async (req, reply) => {
    const b = req.body;
    const v = await core.projects.createProject(actor(req), ref('account', req.params.accountRef), {
      name: b.name, description: b.description, subscriptionRef: ref('subscription', b.subscriptionId),
      location: b.location, spatialReference: b.spatialReference,
    });
    return reply.code(201).header('location', `/api/2/accounts/${req.params.accountRef}/projects/${v.project.id}`).send(present.project(v));
  });

  app.get(`${A}/:projectRef`, {
    schema: { summary: 'A project', operationId: 'getProject', ...beta('Project'), params: PP, querystring: P.CountQuery, response: { 200: P.Project, ...errors } },
  }, async (req) => present.project(await core.projects.getProject(actor(req), ...refs(req), want(req.query))));

  /** A PUT's or a PATCH's body as the use case's input (a PATCH's absent field: unchanged; a PUT's: erased, by the use case). */
  const updateInput = (b: Static<typeof P.ProjectPut> | Static<typeof P.ProjectPatch>): ProjectInput => ({
    name: b.name, description: b.description, location: b.location, spatialReference: b.spatialReference,
    coverBlobName: b.coverBlobName,
    subscriptionRef: b.subscriptionId ? ref('subscription', b.subscriptionId) : undefined,
    ownerRef: b.ownerId ? ref('user', b.ownerId) : undefined,
  });

  app.put(`${A}/:projectRef`, {
    schema: {
      summary: 'Overwrite a project (a missing field is erased)', operationId: 'updateProject',
      ...beta('Project'), params: PP, querystring: P.CountQuery, body: P.ProjectPut, response: { 200: P.Project, ...errors },
    },
  }, async (req) => present.project(await core.projects.updateProject(actor(req), ...refs(req), updateInput(req.body), 'put', want(req.query))));

  app.patch(`${A}/:projectRef`, {
    schema: {
      summary: 'Patch a project (only the given fields)', operationId: 'patchProject',
      ...beta('Project'), params: PP, querystring: P.CountQuery, body: P.ProjectPatch, response: { 200: P.Project, ...errors },
    },
  }, async (req) => present.project(await core.projects.updateProject(actor(req), ...refs(req), updateInput(req.body), 'patch', want(req.query))));

  app.delete(`${A}/:projectRef`, {
    schema: { summary: 'Delete a project (soft; permanent=true removes a deleted one)', operationId: 'deleteProject', ...beta('Project'), params: PP, querystring: Type.Object({ permanent: Type.Optional(Type.Boolean()) }), response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.projects.deleteProject(actor(req), ...refs(req), req.query.permanent ?? false);
    return reply.code(204).send(null);
  });

  app.put(`${A}/:projectRef/restore`, {
    schema: { summary: 'Restore a deleted project', operationId: 'restoreProject', ...beta('Project'), params: PP, querystring: P.CountQuery, response: { 200: P.Project, ...errors } },
  }, async (req) => present.project(await core.projects.restoreProject(actor(req), ...refs(req), want(req.query))));
}
