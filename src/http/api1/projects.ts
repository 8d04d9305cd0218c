// API 1: projects (find, get, the subscription change), the projects module (CONTRACT §6).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { DateTime, Nullable, NullableDateTime } from '../schema-helpers.ts';
import type { Core } from '../../compose.ts';
import { api1IdOf } from '../../core/ids/api1-id.ts';
import type { ProjectDetails } from '../../core/projects/index.ts';
import { actorOf } from '../auth.ts';
import { api1RefParser as ref } from '../refs.ts';
import * as S from './schemas.ts';

const Location = Nullable(Type.Object({ lat: Type.Number(), lng: Type.Number() }));

const Workzone = Type.Object({
  projectId: Type.String(), id: Type.String(), uuid: Type.String(), type: Type.Literal('workzone'), root: Type.Boolean(),
  name: Type.String(), roleIds: Type.Array(Type.String()), description: Type.String(), imageBlob: Nullable(Type.String()),
  location: Location, startAt: NullableDateTime, createdBy: Nullable(Type.String()), createdAt: DateTime,
  updatedAt: DateTime, updatedBy: Nullable(Type.String()),
  userContributors: Type.Array(Type.Object({ userId: Type.String(), roleId: Type.String() })),
  groupContributors: Type.Array(Type.Object({ groupId: Type.String(), roleId: Type.String() })),
  scanCount: Type.Integer(), scanSize: Type.Integer(),
});

const Project = Type.Object({
  id: Type.String(), type: Type.Literal('project'), accountId: Type.String(), planId: Type.String(), isdemo: Type.Boolean(),
  region: Type.String(), projectIdV0: Type.String(), projectIdDefault: Type.String(), ownerId: Type.String(),
  createdAt: DateTime, createdBy: Nullable(Type.String()), updatedAt: DateTime, updatedBy: Nullable(Type.String()),
  name: Type.String(), description: Type.String(), location: Location, isDeleted: Type.Boolean(),
  deletedBy: Nullable(Type.String()), deletedAt: NullableDateTime, scanCount: Type.Integer(), scanSize: Type.Integer(),
  workzoneCount: Type.Integer(), rootWorkzoneCount: Type.Integer(), userIds: Type.Array(Type.String()),
  groupIds: Type.Array(Type.String()), roleIds: Type.Array(Type.String()),
  settings: Type.Object({ spatialReference: Nullable(Type.Object({ authName: Type.String(), code: Type.String() })) }),
  workzones: Type.Array(Workzone),
  permissions: Type.Object({ administrator: Type.Boolean(), manager: Type.Boolean(), contributor: Type.Boolean() }),
});

const id1 = (uuid: string | null) => (uuid ? api1IdOf(uuid) : null);

function present(d: ProjectDetails) {
  const p = d.project;
  const users = d.access.filter((m) => m.memberType === 'user');
  const groups = d.access.filter((m) => m.memberType === 'group');
  return {
    id: p.api1Id, type: 'project' as const, accountId: api1IdOf(p.accountId), planId: api1IdOf(p.subscriptionId), isdemo: p.isDemo,
    region: p.region, projectIdV0: p.api1Id, projectIdDefault: api1IdOf(p.rootWorkzoneId), ownerId: api1IdOf(p.ownerId),
    createdAt: p.createdAt.toISOString(), createdBy: id1(p.createdBy), updatedAt: p.updatedAt.toISOString(), updatedBy: id1(p.updatedBy),
    name: p.name, description: p.description, location: p.location, isDeleted: p.deletedAt !== null, deletedBy: id1(p.deletedBy),
    deletedAt: p.deletedAt?.toISOString() ?? null, scanCount: d.stats.scanCount, scanSize: d.stats.scanSize,
    workzoneCount: d.stats.workzoneCount, rootWorkzoneCount: 1,
    userIds: users.map((m) => api1IdOf(m.memberId)), groupIds: groups.map((m) => api1IdOf(m.memberId)),
    roleIds: [...new Set(d.access.map((m) => api1IdOf(m.roleId)))],
    settings: { spatialReference: p.spatialReference },
    workzones: d.workzones.map((w) => ({
      projectId: p.api1Id, id: w.api1Id, uuid: w.id, type: 'workzone' as const, root: w.id === p.rootWorkzoneId, name: w.name,
      roleIds: [...new Set(d.access.filter((m) => m.workzoneIds.includes(w.id)).map((m) => api1IdOf(m.roleId)))],
      description: w.description, imageBlob: w.coverBlobName, location: null, startAt: null, createdBy: id1(w.createdBy),
      createdAt: w.createdAt.toISOString(), updatedAt: w.updatedAt.toISOString(), updatedBy: id1(w.updatedBy),
      userContributors: users.filter((m) => m.workzoneIds.includes(w.id)).map((m) => ({ userId: api1IdOf(m.memberId), roleId: api1IdOf(m.roleId) })),
      groupContributors: groups.filter((m) => m.workzoneIds.includes(w.id)).map((m) => ({ groupId: api1IdOf(m.memberId), roleId: api1IdOf(m.roleId) })),
      scanCount: d.zoneScans.get(w.id)?.scanCount ?? 0, scanSize: d.zoneScans.get(w.id)?.scanSize ?? 0,
    })),
    permissions: d.flags,
  };
}

export function projectRoutes(root: FastifyInstance, core: Core): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const actor = actorOf;
  const errors = { '4xx': S.Api1Error };
  const PP = S.withParams('projectId');

  app.get('/accounts/:accountId/projects', {
    schema: {
      summary: 'Find projects (optionally the one owning a work zone)', operationId: 'findProjects', tags: ['projects'],
      params: S.AccountParams, querystring: Type.Object({ workzoneId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }),
      response: { 200: Type.Array(Project), ...errors },
    },
  }, async (req) => {
    const workzoneRef = req.query.workzoneId ? ref('workzone', req.query.workzoneId) : undefined;
    return (await core.projectDetails.findProjects(actor(req), ref('account', req.params.accountId), workzoneRef)).map(present);
  });

  app.get('/accounts/:accountId/projects/:projectId', {
    schema: { summary: 'Get project', operationId: 'getProject', tags: ['projects'], params: PP, response: { 200: Project, ...errors } },
  }, async (req) => present(await core.projectDetails.getProjectDetails(actor(req), ref('account', req.params.accountId), ref('project', req.params.projectId))));

  const Op = Type.Object({ op: Type.String({ maxLength: 32 }), path: Type.String({ maxLength: 200 }), value: Type.String({ maxLength: 200 }) }, { additionalProperties: false });
  app.patch('/accounts/:accountId/projects/:projectId', {
    schema: {
      summary: 'Modify the project subscription', operationId: 'modifyProjectSubscription', tags: ['projects'], params: PP,
      body: Type.Array(Op, { minItems: 1, maxItems: 10 }),
      response: { 200: Project, 400: Type.Union([Type.Object({ status: Type.Integer(), type: Type.String() }), S.Api1Error]), ...errors },
    },
  }, async (req, reply) => {
    const bad = req.body.find((o) => o.op !== 'replace');
    // The one API 1 response shaped {status, type} (spec "Modify project subscription").
    if (bad) return reply.code(400).send({ status: 400, type: `Unsupported op "${bad.op.slice(0, 32)}": only "replace" is allowed` });
    const accountRef = ref('account', req.params.accountId);
    const projectRef = ref('project', req.params.projectId);
    const current = await core.projectDetails.getProjectDetails(actor(req), accountRef, projectRef);
    // Every op is checked before anything changes; each replaces the current subscription,
    // so the last one decides, and it is applied once (all or nothing).
    for (const o of req.body) {
      const from = ref('subscription', o.path);
      const matches = 'uuid' in from ? from.uuid === current.project.subscriptionId : from.api1Id === api1IdOf(current.project.subscriptionId);
      if (!matches) return reply.code(400).send({ status: 400, type: `path must be the project's current subscription id` });
    }
    const targets = req.body.map((o) => ref('subscription', o.value));
    await core.projects.updateProject(actor(req), accountRef, projectRef, { subscriptionRef: targets[targets.length - 1]! }, 'patch', {
      scans: false, tags: false, workzones: false,
    });
    return present(await core.projectDetails.getProjectDetails(actor(req), accountRef, projectRef));
  });
}
