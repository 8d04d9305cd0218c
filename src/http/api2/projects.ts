// API 2: projects, work zones and members (CONTRACT §6 "projects", "members", "work zones"). BETA.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Core } from '../../compose.ts';
import { type ProjectView, SPATIAL_REFERENCES } from '../../core/projects/index.ts';
import type { WorkzoneView } from '../../core/workzones/index.ts';
import type { MemberAccessView } from '../../core/members/index.ts';
import type { UserRecord } from '../../core/ports/repositories.ts';
import { api2Kit } from './route-kit.ts';
import * as S from './schemas.ts';
import * as P from './project-schemas.ts';

/**
 * What a project without a location shows as `location`: the vendor's `Project.location` is a
 * required, non-nullable `{lat, lng}` (docs/projects.md "Location", docs/decisions.md). The
 * database keeps "no location" (NULL), and API 1 still shows it as null.
 */
const NO_LOCATION = Object.freeze({ lat: 0, lng: 0 });

export function projectRoutes(root: FastifyInstance, core: Core): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, urn, opt, actor, errors, beta, blobUrl } = api2Kit(core);
  const want = (q: { countScans?: boolean; countTags?: boolean; countWorkzones?: boolean }) => ({
    scans: q.countScans ?? true,
    tags: q.countTags ?? true,
    workzones: q.countWorkzones ?? true,
  });

  const project = (v: ProjectView) => {
    const p = v.project;
    return {
      id: urn('project', p.id), urn: urn('project', p.id), api1Id: p.api1Id, type: 'project' as const,
      accountId: urn('account', p.accountId), subscriptionId: urn('subscription', p.subscriptionId), isdemo: p.isDemo,
      region: p.region, name: p.name, description: p.description, ownerId: urn('user', p.ownerId), location: p.location ?? NO_LOCATION,
      modificationInfo: {
        createdAt: p.createdAt.toISOString(), createdBy: opt('user', p.createdBy), updatedAt: p.updatedAt.toISOString(),
        updatedBy: opt('user', p.updatedBy), isDeleted: p.deletedAt !== null,
        ...(p.deletedAt ? { deletedAt: p.deletedAt.toISOString() } : {}),
        ...(p.deletedBy ? { deletedBy: urn('user', p.deletedBy) } : {}),
      },
      statsInfo: v.stats ?? {},
      ...(p.coverBlobName
        ? {
          coverBlobName: p.coverBlobName,
          // the 302 link of the cover (docs/files.md)
          coverUrl: blobUrl(p.accountId, p.id, p.coverBlobName),
        }
        : {}),
      rootWorkzoneId: urn('workzone', p.rootWorkzoneId),
      ...(p.spatialReference ? { spatialReference: p.spatialReference } : {}),
      permissions: v.permissions,
      bimOnRootWz: v.bimOnRootWz,
    };
  };
  const workzone = (v: WorkzoneView) => {
    const w = v.workzone;
    return {
      id: urn('workzone', w.id), urn: urn('workzone', w.id), api1Id: w.api1Id, type: 'workzone' as const,
      projectId: urn('project', w.projectId), parentId: opt('workzone', w.parentId), rootWorkzoneId: urn('workzone', v.rootWorkzoneId),
      name: w.name, description: w.description, roleIds: v.roleIds.map((r) => urn('role', r)),
      modificationInfo: {
        createdAt: w.createdAt.toISOString(), createdBy: opt('user', w.createdBy), updatedAt: w.updatedAt.toISOString(),
        updatedBy: opt('user', w.updatedBy), isDeleted: false,
      },
      statsInfo: { scanCount: v.scans.scanCount, scanSize: v.scans.scanSize, tagCount: v.tagCount },
      ...(v.permissions ? { permissions: v.permissions } : {}),
    };
  };
  const user = (u: UserRecord) => ({
    id: urn('user', u.id), urn: urn('user', u.id), api1Id: u.api1Id, type: 'user' as const, firstName: u.firstName,
    lastName: u.lastName, email: u.email, company: u.company, title: u.title,
    avatar: `${core.config.publicUrl}/avatars/${u.id}.svg`, invitedBy: opt('user', u.invitedBy), invitedAt: u.invitedAt?.toISOString() ?? null,
  });
  const memberAccess = (m: MemberAccessView) => ({
    member: m.member.type === 'user'
      ? { type: 'user' as const, id: urn('user', m.member.id), email: m.member.email }
      : { type: 'group' as const, id: urn('group', m.member.id), name: m.member.name },
    roleId: urn('role', m.roleId),
    expirationDate: m.expirationDate?.toISOString() ?? null,
    workzoneIds: m.workzoneIds.map((w) => urn('workzone', w)),
  });

  const A = '/accounts/:accountRef/projects';
  const PP = S.withParams('projectRef');
  const WP = S.withParams('projectRef', 'workzoneRef');
  const refs = (req: { params: { accountRef: string; projectRef: string } }) =>
    [ref('account', req.params.accountRef), ref('project', req.params.projectRef)] as const;

  const spatialReferences = SPATIAL_REFERENCES.map((s) => ({ ...s }));
  app.get('/values/spatial-references', {
    schema: { summary: 'Spatial references a project may use', operationId: 'getSpatialReferences', tags: ['values'], response: { 200: Type.Array(P.SpatialReferenceValue), ...errors } },
  }, async () => spatialReferences);

  app.get(A, {
    schema: { summary: 'Active and deleted projects of the account the caller sees', operationId: 'getProjects', ...beta('Project'), params: S.AccountParams, querystring: P.CountQuery, response: { 200: Type.Array(P.Project), ...errors } },
  }, async (req) => (await core.projects.listProjects(actor(req), ref('account', req.params.accountRef), want(req.query))).map(project));

  app.post(A, {
    schema: { summary: 'Create a project (with its root work zone)', operationId: 'createProject', ...beta('Project'), params: S.AccountParams, body: P.ProjectCreate, response: { 201: P.Project, ...errors } },
  }, async (req, reply) => {
    const b = req.body;
    const v = await core.projects.createProject(actor(req), ref('account', req.params.accountRef), {
      name: b.name, description: b.description, subscriptionRef: ref('subscription', b.subscriptionId),
      location: b.location, spatialReference: b.spatialReference,
    });
    return reply.code(201).header('location', `/api/2/accounts/${req.params.accountRef}/projects/${v.project.id}`).send(project(v));
  });

  app.get(`${A}/:projectRef`, {
    schema: { summary: 'A project', operationId: 'getProject', ...beta('Project'), params: PP, querystring: P.CountQuery, response: { 200: P.Project, ...errors } },
  }, async (req) => project(await core.projects.getProject(actor(req), ...refs(req), want(req.query))));

  for (const [method, body, mode] of [['put', P.ProjectPut, 'put'], ['patch', P.ProjectPatch, 'patch']] as const) {
    app.route({
      method: method.toUpperCase() as 'PUT' | 'PATCH',
      url: `${A}/:projectRef`,
      schema: {
        summary: mode === 'put' ? 'Overwrite a project (a missing field is erased)' : 'Patch a project (only the given fields)',
        operationId: mode === 'put' ? 'updateProject' : 'patchProject',
        ...beta('Project'), params: PP, querystring: P.CountQuery, body, response: { 200: P.Project, ...errors },
      },
      handler: async (req) => {
        const b = req.body as Record<string, any>;
        const q = req.query as { countScans?: boolean; countTags?: boolean; countWorkzones?: boolean };
        const params = req.params as { accountRef: string; projectRef: string };
        return project(
          await core.projects.updateProject(actor(req), ...refs({ params }), {
            name: b.name, description: b.description, location: b.location, spatialReference: b.spatialReference,
            coverBlobName: b.coverBlobName,
            subscriptionRef: b.subscriptionId ? ref('subscription', b.subscriptionId) : undefined,
            ownerRef: b.ownerId ? ref('user', b.ownerId) : undefined,
          }, mode, want(q)),
        );
      },
    });
  }

  app.delete(`${A}/:projectRef`, {
    schema: { summary: 'Delete a project (soft; permanent=true removes a deleted one)', operationId: 'deleteProject', ...beta('Project'), params: PP, querystring: Type.Object({ permanent: Type.Optional(Type.Boolean()) }), response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.projects.deleteProject(actor(req), ...refs(req), req.query.permanent ?? false);
    return reply.code(204).send(null);
  });

  app.put(`${A}/:projectRef/restore`, {
    schema: { summary: 'Restore a deleted project', operationId: 'restoreProject', ...beta('Project'), params: PP, querystring: P.CountQuery, response: { 200: P.Project, ...errors } },
  }, async (req) => project(await core.projects.restoreProject(actor(req), ...refs(req), want(req.query))));

  // Work zones
  app.get(`${A}/:projectRef/workzones`, {
    schema: { summary: 'Work zones of a project', operationId: 'getWorkzones', ...beta('Workzone'), params: PP, response: { 200: Type.Array(P.Workzone), ...errors } },
  }, async (req) => (await core.workzones.listWorkzones(actor(req), ...refs(req))).map(workzone));

  app.post(`${A}/:projectRef/workzones`, {
    schema: { summary: 'Create a work zone under a parent (it inherits the parent’s members)', operationId: 'createWorkzone', ...beta('Workzone'), params: PP, body: P.WorkzoneCreate, response: { 201: P.Workzone, ...errors } },
  }, async (req, reply) => {
    const v = await core.workzones.createWorkzone(actor(req), ...refs(req), {
      name: req.body.name, description: req.body.description, parentRef: ref('workzone', req.body.parentWorkzoneId),
    });
    return reply.code(201).send(workzone(v));
  });

  app.get(`${A}/:projectRef/workzones/:workzoneRef`, {
    schema: { summary: 'A work zone', operationId: 'getWorkzone', ...beta('Workzone'), params: WP, response: { 200: P.Workzone, ...errors } },
  }, async (req) => workzone(await core.workzones.getWorkzone(actor(req), ...refs(req), ref('workzone', req.params.workzoneRef))));

  app.put(`${A}/:projectRef/workzones/:workzoneRef`, {
    schema: { summary: 'Overwrite a work zone', operationId: 'updateWorkzone', ...beta('Workzone'), params: WP, body: P.WorkzoneUpdate, response: { 200: P.Workzone, ...errors } },
  }, async (req) => workzone(await core.workzones.updateWorkzone(actor(req), ...refs(req), ref('workzone', req.params.workzoneRef), req.body)));

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
  }, async (req) => {
    const s = await core.workzoneCopy.copyStatus(actor(req), ...refs(req), ref('workzone', req.params.workzoneRef), req.params.jobId);
    return {
      jobId: s.jobId,
      state: s.state,
      ...(s.result
        ? {
          result: {
            projectId: urn('project', s.result.destinationProjectId), workzoneId: urn('workzone', s.result.workzoneId),
            copiedWorkzones: s.result.copiedWorkzones, copiedFiles: s.result.copiedFiles, skippedMembers: s.result.skippedMembers.length,
          },
        }
        : {}),
      ...(s.error ? { error: s.error } : {}),
    };
  });

  // Members
  app.get(`${A}/:projectRef/members`, {
    schema: { summary: 'Users member of a project', operationId: 'getProjectMembers', ...beta('Members'), params: PP, response: { 200: Type.Array(S.User), ...errors } },
  }, async (req) => (await core.members.listMembers(actor(req), ...refs(req))).map(user));

  app.get(`${A}/:projectRef/members/access`, {
    schema: { summary: 'Every member with every work zone it reaches', operationId: 'getProjectMembersAccess', ...beta('Members'), params: PP, response: { 200: Type.Array(P.MemberAccess), ...errors } },
  }, async (req) => (await core.members.listAccess(actor(req), ...refs(req))).map(memberAccess));

  app.post(`${A}/:projectRef/members`, {
    schema: { summary: 'Add members to a project', operationId: 'addProjectMembers', ...beta('Members'), params: PP, body: P.AddMembers, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    const b = req.body;
    const date = (d: string | null | undefined) => (d ? new Date(d) : null);
    await core.members.addMembers(actor(req), ...refs(req), {
      workzoneRefs: b.workzones?.map((w) => ref('workzone', w)),
      users: b.members.users?.map((u) => ({ email: u.user, roleRef: ref('role', u.role), expirationDate: date(u.expirationDate) })),
      groups: b.members.groups?.map((g) => ({ groupRef: ref('group', g.group), roleRef: ref('role', g.role), expirationDate: date(g.expirationDate) })),
    });
    return reply.code(204).send(null);
  });

  app.post(`${A}/:projectRef/members/bulk-remove`, {
    schema: { summary: 'Remove users and groups from the project', operationId: 'removeMembersFromProject', ...beta('Members'), params: PP, body: P.BulkRemove, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.members.removeMembers(actor(req), ...refs(req), {
      userRefs: req.body.users?.map((u) => ref('user', u)),
      groupRefs: req.body.groups?.map((g) => ref('group', g)),
    });
    return reply.code(204).send(null);
  });

  app.delete(`${A}/:projectRef/members/users/:userRef`, {
    schema: { summary: 'Remove a user from the project', operationId: 'removeUserFromProject', ...beta('Members'), params: S.withParams('projectRef', 'userRef'), response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.members.removeMembers(actor(req), ...refs(req), { userRefs: [ref('user', req.params.userRef)] });
    return reply.code(204).send(null);
  });

  app.delete(`${A}/:projectRef/members/groups/:groupRef`, {
    schema: { summary: 'Remove a group from the project', operationId: 'removeGroupFromProject', ...beta('Members'), params: S.withParams('projectRef', 'groupRef'), response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.members.removeMembers(actor(req), ...refs(req), { groupRefs: [ref('group', req.params.groupRef)] });
    return reply.code(204).send(null);
  });

  app.delete(`${A}/:projectRef/workzones/:workzoneRef/members/users/:userRef`, {
    schema: {
      summary: 'Remove a user from a work zone and all child work zones', operationId: 'removeUserFromWorkzone', ...beta('Members'),
      params: S.withParams('projectRef', 'workzoneRef', 'userRef'), querystring: Type.Object({ allowRemoveOnParents: Type.Optional(Type.Boolean()) }),
      response: { 204: Type.Null(), ...errors },
    },
  }, async (req, reply) => {
    await core.members.removeFromWorkzone(
      actor(req), ...refs(req), ref('workzone', req.params.workzoneRef), ref('user', req.params.userRef), req.query.allowRemoveOnParents ?? false,
    );
    return reply.code(204).send(null);
  });
}
