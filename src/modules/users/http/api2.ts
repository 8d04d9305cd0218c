// API 2: the users of an account and their account membership, the users module (spec "API 2 operations", CONTRACT §6).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { api2Kit, type KitCore } from '../../../http/api2/route-kit.ts';
import * as S from '../../../http/api2/schemas.ts';
import type { AccountInvitations } from '../core/account-invitations.ts';
import type { AccountUsers } from '../core/account-users.ts';
import { userPresenters } from './presenters.ts';
import * as U from './schemas.ts';

export function userRoutes(root: FastifyInstance, core: KitCore & { accountInvitations: AccountInvitations; accountUsers: AccountUsers }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, actor, errors, tag } = api2Kit(core);
  const p = userPresenters(core);

  // Users and account membership
  app.get('/accounts/:accountRef/users', {
    schema: { summary: 'Users of an account', operationId: 'getUsers', ...tag('User'), params: S.AccountParams, response: { 200: Type.Array(S.User), ...errors } },
  }, async (req) => (await core.accountUsers.listUsers(actor(req), ref('account', req.params.accountRef))).map(p.user));

  app.get('/accounts/:accountRef/users/:userRef', {
    schema: { summary: 'A user of an account', operationId: 'getUser', ...tag('User'), params: S.withParams('userRef'), response: { 200: S.User, ...errors } },
  }, async (req) =>
    p.user(await core.accountUsers.getUser(actor(req), ref('account', req.params.accountRef), ref('user', req.params.userRef))));

  app.post('/accounts/:accountRef/users/bulk-invite', {
    schema: { summary: 'Invite users to an account (idempotent; all or nothing)', operationId: 'inviteUsers', ...tag('User'), params: S.AccountParams, body: U.InviteBody, response: { 201: Type.Array(S.User), ...errors } },
  }, async (req, reply) => {
    const users = await core.accountUsers.inviteUsers(actor(req), ref('account', req.params.accountRef), req.body);
    return reply.code(201).send(users.map(p.user));
  });

  // The caller's own pending invitations (our extension: joining an account is an invitation he accepts).
  app.get('/me/invitations', {
    schema: { summary: 'The caller\'s pending invitations to accounts', operationId: 'getMyInvitations', ...tag('User'), response: { 200: Type.Array(U.MyInvitation), ...errors } },
  }, async (req) => (await core.accountInvitations.mine(actor(req).userId)).map(p.invitation));

  app.post('/me/invitations/:accountRef/accept', {
    schema: { summary: 'Accept an invitation: become a member of the account', operationId: 'acceptInvitation', ...tag('User'), params: S.AccountParams, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.accountInvitations.accept(actor(req).userId, ref('account', req.params.accountRef));
    return reply.code(204).send(null);
  });

  app.post('/me/invitations/:accountRef/decline', {
    schema: { summary: 'Decline an invitation', operationId: 'declineInvitation', ...tag('User'), params: S.AccountParams, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.accountInvitations.decline(actor(req).userId, ref('account', req.params.accountRef));
    return reply.code(204).send(null);
  });

  app.delete('/accounts/:accountRef/members', {
    schema: { summary: 'Remove users from an account', operationId: 'removeUsersFromAccount', ...tag('Account'), params: S.AccountParams, body: S.RefList, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.accountUsers.removeUsers(actor(req), ref('account', req.params.accountRef), req.body.map((u) => ref('user', u)));
    return reply.code(204).send(null);
  });

  app.put('/accounts/:accountRef/members/:userRef/roles', {
    schema: { summary: 'Set the account roles of a user', operationId: 'updateUserAccountRoles', ...tag('Account'), params: S.withParams('userRef'), body: Type.Array(S.AccountRoleEnum, { maxItems: 3, uniqueItems: true }), response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.accountUsers.updateAccountRoles(actor(req), ref('account', req.params.accountRef), ref('user', req.params.userRef), req.body);
    return reply.code(204).send(null);
  });
}
