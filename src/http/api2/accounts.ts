// API 2: accounts, subscriptions, roles, users and groups (spec "API 2 operations", CONTRACT §6).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Core } from '../../compose.ts';
import { actorOf } from '../auth.ts';
import { api2RefParser } from '../refs.ts';
import { presenters, regionOf } from './presenters.ts';
import * as S from './schemas.ts';

export function accountRoutes(root: FastifyInstance, core: Core): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const ref = api2RefParser(core.config.urnNamespace);
  const p = presenters({ ns: core.config.urnNamespace, publicUrl: core.config.publicUrl, region: regionOf(core.config.storageUrl) });
  const actor = actorOf;
  const errors = { '4xx': S.Problem };
  const tag = (t: string) => ({ tags: [t] });

  // Accounts
  app.get('/accounts', {
    schema: { summary: "The caller's accounts", operationId: 'getAccounts', ...tag('Account'), response: { 200: Type.Array(S.Account), ...errors } },
  }, async (req) => (await core.accounts.listAccounts(actor(req))).map(p.account));

  app.get('/accounts/:accountRef', {
    schema: { summary: 'An account', operationId: 'getAccount', ...tag('Account'), params: S.AccountParams, response: { 200: S.Account, ...errors } },
  }, async (req) => p.account(await core.accounts.getAccount(actor(req), ref('account', req.params.accountRef))));

  // Subscriptions
  app.get('/accounts/:accountRef/subscriptions', {
    schema: { summary: 'Subscriptions of an account', operationId: 'getSubscriptions', ...tag('Subscription'), params: S.AccountParams, response: { 200: Type.Array(S.Subscription), ...errors } },
  }, async (req) => (await core.accounts.listSubscriptions(actor(req), ref('account', req.params.accountRef))).map(p.subscription));

  app.get('/accounts/:accountRef/subscriptions/:subscriptionRef', {
    schema: { summary: 'A subscription', operationId: 'getSubscription', ...tag('Subscription'), params: S.withParams('subscriptionRef'), response: { 200: S.Subscription, ...errors } },
  }, async (req) =>
    p.subscription(
      await core.accounts.getSubscription(actor(req), ref('account', req.params.accountRef), ref('subscription', req.params.subscriptionRef)),
    ));

  // Our extension (docs/decisions.md "Subscription usage"): what the capacities hold now.
  app.get('/accounts/:accountRef/subscriptions/:subscriptionRef/usage', {
    schema: {
      summary: 'What a subscription uses of its capacities and storage quota', operationId: 'getSubscriptionUsage', ...tag('Subscription'),
      params: S.withParams('subscriptionRef'), response: { 200: S.SubscriptionUsage, ...errors },
    },
  }, async (req) => {
    const u = await core.accounts.subscriptionUsage(actor(req), ref('account', req.params.accountRef), ref('subscription', req.params.subscriptionRef));
    return {
      subscriptionId: p.urn('subscription', u.subscription.id),
      scans: { used: u.scans, allowed: u.subscription.scanCapacity },
      geoImages: { used: u.geoImages, allowed: u.subscription.geoImageCapacity },
      tags: { used: u.tags, allowed: u.subscription.tagCapacity },
      storageBytes: { used: u.bytes, allowed: u.quotaBytes },
    };
  });

  app.patch('/accounts/:accountRef/subscriptions/:subscriptionRef', {
    schema: { summary: 'Rename a subscription, or (account owner) set inviteAccountOwnerInNewProjects', operationId: 'updateSubscription', ...tag('Subscription'), params: S.withParams('subscriptionRef'), body: S.SubscriptionPatch, response: { 200: S.Subscription, ...errors } },
  }, async (req) =>
    p.subscription(
      await core.accounts.updateSubscription(actor(req), ref('account', req.params.accountRef), ref('subscription', req.params.subscriptionRef), req.body),
    ));

  // Roles
  app.get('/accounts/:accountRef/roles', {
    schema: { summary: 'Roles of an account', operationId: 'getRoles', ...tag('Role'), params: S.AccountParams, response: { 200: Type.Array(S.Role), ...errors } },
  }, async (req) => (await core.roles.listRoles(actor(req), ref('account', req.params.accountRef))).map(p.role));

  app.post('/accounts/:accountRef/roles', {
    schema: { summary: 'Create a role', operationId: 'createRole', ...tag('Role'), params: S.AccountParams, body: S.RoleCreate, response: { 201: S.Role, ...errors } },
  }, async (req, reply) => {
    const role = await core.roles.createRole(actor(req), ref('account', req.params.accountRef), req.body);
    return reply.code(201).header('location', `/api/2/accounts/${req.params.accountRef}/roles/${role.id}`).send(p.role(role));
  });

  app.get('/accounts/:accountRef/roles/:roleRef', {
    schema: { summary: 'A role', operationId: 'getRole', ...tag('Role'), params: S.withParams('roleRef'), response: { 200: S.Role, ...errors } },
  }, async (req) => p.role(await core.roles.getRole(actor(req), ref('account', req.params.accountRef), ref('role', req.params.roleRef))));

  app.put('/accounts/:accountRef/roles/:roleRef', {
    schema: { summary: 'Overwrite a role (a missing field is erased)', operationId: 'updateRole', ...tag('Role'), params: S.withParams('roleRef'), body: S.RoleUpdate, response: { 200: S.Role, ...errors } },
  }, async (req) =>
    p.role(await core.roles.updateRole(actor(req), ref('account', req.params.accountRef), ref('role', req.params.roleRef), req.body)));

  app.delete('/accounts/:accountRef/roles/:roleRef', {
    schema: { summary: 'Delete a role', operationId: 'deleteRole', ...tag('Role'), params: S.withParams('roleRef'), response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.roles.deleteRole(actor(req), ref('account', req.params.accountRef), ref('role', req.params.roleRef));
    return reply.code(204).send(null);
  });

  // Users and account membership
  app.get('/accounts/:accountRef/users', {
    schema: { summary: 'Users of an account', operationId: 'getUsers', ...tag('User'), params: S.AccountParams, response: { 200: Type.Array(S.User), ...errors } },
  }, async (req) => (await core.accountUsers.listUsers(actor(req), ref('account', req.params.accountRef))).map(p.user));

  app.get('/accounts/:accountRef/users/:userRef', {
    schema: { summary: 'A user of an account', operationId: 'getUser', ...tag('User'), params: S.withParams('userRef'), response: { 200: S.User, ...errors } },
  }, async (req) =>
    p.user(await core.accountUsers.getUser(actor(req), ref('account', req.params.accountRef), ref('user', req.params.userRef))));

  app.post('/accounts/:accountRef/users/bulk-invite', {
    schema: { summary: 'Invite users to an account (idempotent; all or nothing)', operationId: 'inviteUsers', ...tag('User'), params: S.AccountParams, body: S.InviteBody, response: { 201: Type.Array(S.User), ...errors } },
  }, async (req, reply) => {
    const users = await core.accountUsers.inviteUsers(actor(req), ref('account', req.params.accountRef), req.body);
    return reply.code(201).send(users.map(p.user));
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

  // Groups
  app.get('/accounts/:accountRef/groups', {
    schema: { summary: 'Groups of an account', operationId: 'getGroups', ...tag('Group'), params: S.AccountParams, response: { 200: Type.Array(S.Group), ...errors } },
  }, async (req) => (await core.groups.listGroups(actor(req), ref('account', req.params.accountRef))).map(p.group));

  app.post('/accounts/:accountRef/groups', {
    schema: { summary: 'Create a group (409 when the name exists, case-insensitive)', operationId: 'createGroup', ...tag('Group'), params: S.AccountParams, body: S.GroupCreate, response: { 201: S.Group, ...errors } },
  }, async (req, reply) => {
    const g = await core.groups.createGroup(actor(req), ref('account', req.params.accountRef), req.body);
    return reply.code(201).header('location', `/api/2/accounts/${req.params.accountRef}/groups/${g.id}`).send(p.group(g));
  });

  app.get('/accounts/:accountRef/groups/:groupRef', {
    schema: { summary: 'A group', operationId: 'getGroup', ...tag('Group'), params: S.withParams('groupRef'), response: { 200: S.Group, ...errors } },
  }, async (req) => p.group(await core.groups.getGroup(actor(req), ref('account', req.params.accountRef), ref('group', req.params.groupRef))));

  app.put('/accounts/:accountRef/groups/:groupRef', {
    schema: { summary: 'Overwrite a group', operationId: 'updateGroup', ...tag('Group'), params: S.withParams('groupRef'), body: S.GroupUpdate, response: { 200: S.Group, ...errors } },
  }, async (req) =>
    p.group(await core.groups.updateGroup(actor(req), ref('account', req.params.accountRef), ref('group', req.params.groupRef), req.body)));

  app.delete('/accounts/:accountRef/groups/:groupRef', {
    schema: { summary: 'Delete a group', operationId: 'deleteGroup', ...tag('Group'), params: S.withParams('groupRef'), response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.groups.deleteGroup(actor(req), ref('account', req.params.accountRef), ref('group', req.params.groupRef));
    return reply.code(204).send(null);
  });

  app.post('/accounts/:accountRef/groups/:groupRef/members', {
    schema: { summary: 'Add users to a group', operationId: 'addUsersToGroup', ...tag('Group'), params: S.withParams('groupRef'), body: S.RefList, response: { 200: S.Group, ...errors } },
  }, async (req) =>
    p.group(
      await core.groups.addGroupMembers(actor(req), ref('account', req.params.accountRef), ref('group', req.params.groupRef), req.body.map((u) => ref('user', u))),
    ));

  app.delete('/accounts/:accountRef/groups/:groupRef/members', {
    schema: { summary: 'Remove users from a group', operationId: 'removeUsersFromGroup', ...tag('Group'), params: S.withParams('groupRef'), body: S.RefList, response: { 200: S.Group, ...errors } },
  }, async (req) =>
    p.group(
      await core.groups.removeGroupMembers(actor(req), ref('account', req.params.accountRef), ref('group', req.params.groupRef), req.body.map((u) => ref('user', u))),
    ));
}
