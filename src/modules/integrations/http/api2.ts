// API 2: integrations, the integrations module (vendor BETA getAccountIntegrations …
// deleteAutodeskConnection, createAnnotationIntegrationLinks). Parse, call one use case, present.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { actorOf } from '../../../http/auth.ts';
import { api2Naming } from '../../../http/api2/naming.ts';
import * as S from '../../../http/api2/schemas.ts';
import type { Integrations, ProjectAutodeskInput, ProjectKonektInput } from '../index.ts';
import { integrationPresenters } from './presenters.ts';
import * as I from './schemas.ts';

export function integrationRoutes(root: FastifyInstance, use: { integrations: Integrations; config: { urnNamespace: string } }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, urn, refs, errors, beta } = api2Naming(use.config.urnNamespace);
  const present = integrationPresenters(urn);
  const it = use.integrations;
  /** The operations that reach a third party also answer 503 `integration-unavailable`. */
  const thirdParty = { ...errors, 503: S.Problem };
  const accountParams = S.AccountParams;
  const hubParams = S.withParams('integrationRef');
  const projectParams = S.withParams('projectRef');
  const A = '/accounts/:accountRef/integrations';
  const K = `${A}/konekt/:integrationRef`;
  const P = '/accounts/:accountRef/projects/:projectRef';
  const account = (req: { params: { accountRef: string } }) => ref('account', req.params.accountRef);
  const hub = (req: { params: { integrationRef: string } }) => ref('newforma-konekt-hub', req.params.integrationRef);
  const konektInput = (b: Static<typeof I.ProjectKonektWrite>): ProjectKonektInput => ({
    hubId: b.hubId, konektProjectId: b.konektProjectId, allowInviteUsers: b.options.allowInviteUsers, syncStrategy: b.options.syncStrategy,
  });
  const autodeskInput = (b: Static<typeof I.ProjectAutodeskWrite>): ProjectAutodeskInput => ({ autodeskHubId: b.autodeskHubId, autodeskProjectId: b.autodeskProjectId });

  app.get(A, {
    schema: { summary: 'List integrations on the account', operationId: 'getAccountIntegrations', ...beta('Integrations'), params: accountParams, response: { 200: I.AccountIntegrations, ...errors } },
  }, async (req) => present.accountIntegrations(await it.getAccountIntegrations(actorOf(req), account(req))));

  app.post(`${A}/konekt`, {
    schema: {
      summary: 'Create an account integration with Konekt', operationId: 'createAccountIntegrationKonekt', ...beta('Konekt'), params: accountParams,
      body: I.AccountKonektCreate, response: { 201: I.AccountKonekt, ...thirdParty },
    },
  }, async (req, reply) => reply.code(201).send(present.accountKonekt(await it.createAccountIntegrationKonekt(actorOf(req), account(req), req.body.token, req.body.options ?? null))));

  app.get(K, {
    schema: { summary: 'Get an account integration with Konekt', operationId: 'getKonektAccountIntegrationById', ...beta('Konekt'), params: hubParams, response: { 200: I.AccountKonekt, ...errors } },
  }, async (req) => present.accountKonekt(await it.getKonektAccountIntegration(actorOf(req), account(req), hub(req))));

  app.put(K, {
    schema: {
      summary: 'Update an account integration with Konekt', operationId: 'updateKonektAccountIntegration', ...beta('Konekt'), params: hubParams,
      body: I.AccountKonektUpdate, response: { 200: I.AccountKonekt, ...errors },
    },
  }, async (req) => present.accountKonekt(await it.updateKonektAccountIntegration(actorOf(req), account(req), hub(req), req.body.options)));

  app.delete(K, {
    schema: { summary: 'Delete an account integration with Konekt', operationId: 'deleteKonektAccountIntegration', ...beta('Konekt'), params: hubParams, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await it.deleteKonektAccountIntegration(actorOf(req), account(req), hub(req));
    return reply.code(204).send(null);
  });

  app.post(`${K}/connection`, {
    schema: {
      summary: 'Connect an account integration with Konekt', operationId: 'connectKonektAccountIntegration', ...beta('Konekt'), params: hubParams,
      body: I.KonektConnectionCreate, response: { 200: I.AccountKonekt, ...thirdParty },
    },
  }, async (req) => present.accountKonekt(await it.connectKonektAccountIntegration(actorOf(req), account(req), hub(req), req.body.token)));

  app.delete(`${K}/connection`, {
    schema: {
      summary: 'Disconnect an account integration with Konekt', operationId: 'deleteKonektAccountIntegrationConnection', ...beta('Konekt'), params: hubParams,
      response: { 204: Type.Null(), ...errors },
    },
  }, async (req, reply) => {
    await it.disconnectKonektAccountIntegration(actorOf(req), account(req), hub(req));
    return reply.code(204).send(null);
  });

  app.get(`${P}/integrations`, {
    schema: { summary: 'List integrations on the project', operationId: 'getProjectIntegrations', ...beta('Integrations'), params: projectParams, response: { 200: I.ProjectIntegrations, ...errors } },
  }, async (req) => present.projectIntegrations(await it.getProjectIntegrations(actorOf(req), ...refs(req))));

  app.get(`${P}/integrations/konekt`, {
    schema: {
      summary: 'Get configuration of integration with Konekt on a Project', operationId: 'getKonektProjectIntegration', ...beta('Konekt'), params: projectParams,
      response: { 200: I.ProjectKonekt, ...errors },
    },
  }, async (req) => present.projectKonekt(await it.getKonektProjectIntegration(actorOf(req), ...refs(req))));

  app.post(`${P}/integrations/konekt`, {
    schema: {
      summary: 'Create configuration of integration with Konekt on Project', operationId: 'createKonektProjectIntegration', ...beta('Konekt'), params: projectParams,
      body: I.ProjectKonektWrite, response: { 201: I.ProjectKonekt, ...thirdParty },
    },
  }, async (req, reply) => reply.code(201).send(present.projectKonekt(await it.putKonektProjectIntegration(actorOf(req), ...refs(req), konektInput(req.body), 'create'))));

  app.put(`${P}/integrations/konekt`, {
    schema: {
      summary: 'Update configuration of the integration with Konekt on Project', operationId: 'updateKonektProjectIntegration', ...beta('Konekt'), params: projectParams,
      body: I.ProjectKonektWrite, response: { 200: I.ProjectKonekt, ...thirdParty },
    },
  }, async (req) => present.projectKonekt(await it.putKonektProjectIntegration(actorOf(req), ...refs(req), konektInput(req.body), 'update')));

  app.delete(`${P}/integrations/konekt`, {
    schema: {
      summary: 'Delete the integration with Konekt on Project', operationId: 'deleteKonektProjectIntegration', ...beta('Konekt'), params: projectParams,
      response: { 204: Type.Null(), ...errors },
    },
  }, async (req, reply) => {
    await it.deleteKonektProjectIntegration(actorOf(req), ...refs(req));
    return reply.code(204).send(null);
  });

  app.get(`${P}/integrations/autodesk`, {
    schema: {
      summary: 'Get configuration of integration with Autodesk on a Project', operationId: 'getAutodeskProjectIntegration', ...beta('Autodesk'), params: projectParams,
      response: { 200: I.ProjectAutodesk, ...errors },
    },
  }, async (req) => present.projectAutodesk(await it.getAutodeskProjectIntegration(actorOf(req), ...refs(req))));

  app.post(`${P}/integrations/autodesk`, {
    schema: {
      summary: 'Create configuration of integration with Autodesk on Project', operationId: 'createAutodeskProjectIntegration', ...beta('Autodesk'), params: projectParams,
      body: I.ProjectAutodeskWrite, response: { 201: I.ProjectAutodesk, ...errors },
    },
  }, async (req, reply) => reply.code(201).send(present.projectAutodesk(await it.putAutodeskProjectIntegration(actorOf(req), ...refs(req), autodeskInput(req.body), 'create'))));

  app.put(`${P}/integrations/autodesk`, {
    schema: {
      summary: 'Update configuration of the integration with Autodesk on Project', operationId: 'updateAutodeskProjectIntegration', ...beta('Autodesk'), params: projectParams,
      body: I.ProjectAutodeskWrite, response: { 200: I.ProjectAutodesk, ...errors },
    },
  }, async (req) => present.projectAutodesk(await it.putAutodeskProjectIntegration(actorOf(req), ...refs(req), autodeskInput(req.body), 'update')));

  app.delete(`${P}/integrations/autodesk`, {
    schema: {
      summary: 'Delete the integration with Autodesk on Project', operationId: 'deleteAutodeskProjectIntegration', ...beta('Autodesk'), params: projectParams,
      response: { 204: Type.Null(), ...errors },
    },
  }, async (req, reply) => {
    await it.deleteAutodeskProjectIntegration(actorOf(req), ...refs(req));
    return reply.code(204).send(null);
  });

  app.get('/integrations/autodesk/connection', {
    schema: { summary: 'Get my connection to Autodesk', operationId: 'getAutodeskConnection', ...beta('Autodesk'), response: { 200: I.AutodeskConnection, ...errors } },
  }, async (req) => present.autodeskConnection(await it.getAutodeskConnection(actorOf(req))));

  app.delete('/integrations/autodesk/connection', {
    schema: { summary: 'Disconnect me from Autodesk', operationId: 'deleteAutodeskConnection', ...beta('Autodesk'), response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await it.deleteAutodeskConnection(actorOf(req));
    return reply.code(204).send(null);
  });

  app.get('/integrations/autodesk/connection/url', {
    schema: {
      summary: 'Create or update Autodesk connection', operationId: 'getAutodeskConnectionUrl', ...beta('Autodesk'), querystring: I.RedirectQuery,
      response: { 200: I.ConnectionUrl, 302: Type.Null(), ...thirdParty },
    },
  }, async (req, reply) => {
    const url = await it.autodeskConnectionUrl(actorOf(req), req.query.redirectUri);
    return req.query.answer === 'json' ? reply.send({ url }) : reply.redirect(url, 302);
  });

  app.post(`${P}/annotations/bulk-create-integration`, {
    schema: {
      summary: 'Create integration links on annotations', operationId: 'createAnnotationIntegrationLinks', ...beta('Integrations'), params: projectParams,
      body: I.LinksCreate, response: { 202: I.LinksCreated, ...thirdParty },
    },
  }, async (req, reply) => {
    const annotations = req.body.annotations ? req.body.annotations.map((a) => ref('annotation', a)) : null;
    return reply.code(202).send(present.links(await it.createAnnotationIntegrationLinks(actorOf(req), ...refs(req), annotations, req.body.integrationTypes)));
  });
}
