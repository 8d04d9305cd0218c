// API 2: an account's single sign-on settings (our extension; docs/identity.md). Account
// administrators only (the use cases check account:administrators:read/write).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { api2Naming } from '../../../http/api2/naming.ts';
import * as S from '../../../http/api2/schemas.ts';
import { ssoPresenters } from './presenters.ts';
import * as X from './schemas.ts';
import type { SsoSettings } from '../core/index.ts';

/** What the routes use: the URN namespace, the public address and the settings' use cases. */
type Use = { config: { urnNamespace: string; publicUrl: string }; ssoSettings: SsoSettings };

export function ssoRoutes(root: FastifyInstance, core: Use): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, actor, errors } = api2Naming(core.config.urnNamespace);
  const p = ssoPresenters(core.config.urnNamespace, core.config.publicUrl);
  const tag = { tags: ['Single sign-on'] };
  const bodyLimit = X.SSO_BODY_LIMIT;
  const account = (params: { accountRef: string }) => ref('account', params.accountRef);
  const DomainParams = S.withParams('domain');
  const RuleParams = S.withParams('ruleId');

  app.get('/accounts/:accountRef/sso', {
    schema: { summary: "The account's single sign-on: identity provider, domains, mapping rules", operationId: 'getSso', ...tag, params: S.AccountParams, response: { 200: X.SsoSettings, ...errors } },
  }, async (req) => p.settings(await core.ssoSettings.settings(actor(req), account(req.params))));

  app.put('/accounts/:accountRef/sso/provider', {
    bodyLimit,
    schema: { summary: "Set the account's OpenID Connect identity provider", operationId: 'putSsoProvider', ...tag, params: S.AccountParams, body: X.ProviderPut, response: { 200: X.SsoProvider, ...errors } },
  }, async (req) => p.provider(await core.ssoSettings.putProvider(actor(req), account(req.params), req.body)));

  app.delete('/accounts/:accountRef/sso/provider', {
    schema: { summary: "Remove the account's identity provider", operationId: 'deleteSsoProvider', ...tag, params: S.AccountParams, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.ssoSettings.removeProvider(actor(req), account(req.params));
    return reply.code(204).send(null);
  });

  app.post('/accounts/:accountRef/sso/domains', {
    bodyLimit,
    schema: { summary: 'Claim an e-mail domain (answers its verification token, once)', operationId: 'createSsoDomain', ...tag, params: S.AccountParams, body: X.DomainPost, response: { 201: X.ClaimedDomain, ...errors } },
  }, async (req, reply) => reply.code(201).send(p.claimed(await core.ssoSettings.claimDomain(actor(req), account(req.params), req.body.domain))));

  app.patch('/accounts/:accountRef/sso/domains/:domain', {
    bodyLimit,
    schema: { summary: "Require single sign-on for a verified domain's users, or not", operationId: 'updateSsoDomain', ...tag, params: DomainParams, body: X.DomainPatch, response: { 200: X.SsoDomain, ...errors } },
  }, async (req) => p.domain(await core.ssoSettings.setRequireSso(actor(req), account(req.params), req.params.domain, req.body.requireSso)));

  app.delete('/accounts/:accountRef/sso/domains/:domain', {
    schema: { summary: 'Remove a domain claim', operationId: 'deleteSsoDomain', ...tag, params: DomainParams, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.ssoSettings.removeDomain(actor(req), account(req.params), req.params.domain);
    return reply.code(204).send(null);
  });

  app.post('/accounts/:accountRef/sso/rules', {
    bodyLimit,
    schema: { summary: 'Add a mapping rule (an ID token claim value → a group and/or an account role)', operationId: 'createSsoRule', ...tag, params: S.AccountParams, body: X.RulePost, response: { 201: X.MappingRule, ...errors } },
  }, async (req, reply) => {
    const { group, ...rest } = req.body;
    const rule = await core.ssoSettings.addRule(actor(req), account(req.params), { ...rest, group: group ? ref('group', group) : null });
    return reply.code(201).send(p.rule(rule));
  });

  app.put('/accounts/:accountRef/sso/rules/:ruleId', {
    bodyLimit,
    schema: { summary: 'Change a mapping rule (its id and place in the list stay)', operationId: 'updateSsoRule', ...tag, params: RuleParams, body: X.RulePost, response: { 200: X.MappingRule, ...errors } },
  }, async (req) => {
    const { group, ...rest } = req.body;
    return p.rule(await core.ssoSettings.updateRule(actor(req), account(req.params), req.params.ruleId, { ...rest, group: group ? ref('group', group) : null }));
  });

  app.delete('/accounts/:accountRef/sso/rules/:ruleId', {
    schema: { summary: 'Remove a mapping rule', operationId: 'deleteSsoRule', ...tag, params: RuleParams, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.ssoSettings.removeRule(actor(req), account(req.params), req.params.ruleId);
    return reply.code(204).send(null);
  });
}
