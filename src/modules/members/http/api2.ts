// API 2: project members, the members module (CONTRACT §6 "members"). BETA.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { api2Kit, type KitCore } from '../../../http/api2/route-kit.ts';
import * as S from '../../../http/api2/schemas.ts';
import type { Members } from '../core/members.ts';
import { memberPresenters } from './presenters.ts';
import * as P from './schemas.ts';

export function memberRoutes(root: FastifyInstance, core: KitCore & { members: Members }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, actor, errors, beta, refs } = api2Kit(core);
  const present = memberPresenters(core);

  const A = '/accounts/:accountRef/projects';
  const PP = S.withParams('projectRef');

  // Members
  app.get(`${A}/:projectRef/members`, {
    schema: { summary: 'Users member of a project', operationId: 'getProjectMembers', ...beta('Members'), params: PP, response: { 200: Type.Array(S.User), ...errors } },
  }, async (req) => (await core.members.listMembers(actor(req), ...refs(req))).map(present.member));

  app.get(`${A}/:projectRef/members/access`, {
    schema: { summary: 'Every member with every work zone it reaches', operationId: 'getProjectMembersAccess', ...beta('Members'), params: PP, response: { 200: Type.Array(P.MemberAccess), ...errors } },
  }, async (req) => (await core.members.listAccess(actor(req), ...refs(req))).map(present.memberAccess));

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
