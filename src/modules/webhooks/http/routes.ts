// API 2: webhooks of an account, the webhooks module (our extension, not in the vendor's API; docs/webhooks.md).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { api2Kit, type KitCore } from '../../../http/api2/route-kit.ts';
import { AccountParams } from '../../../http/api2/schemas.ts';
import type { Webhooks } from '../core/webhooks.ts';
import { webhookPresenters } from './presenters.ts';
import * as W from './schemas.ts';

export function webhookRoutes(root: FastifyInstance, core: KitCore & { webhooks: Webhooks }): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, actor, errors } = api2Kit(core);
  const p = webhookPresenters(core.config.urnNamespace);
  const tag = { tags: ['Webhook'] };
  const bodyLimit = W.WEBHOOK_BODY_LIMIT;
  const target = (params: { accountRef: string; webhookRef: string }) => [ref('account', params.accountRef), ref('webhook', params.webhookRef)] as const;

  app.post('/accounts/:accountRef/webhooks', {
    bodyLimit,
    schema: { summary: 'Register a webhook endpoint (answers its signing secret, once)', operationId: 'createWebhook', ...tag, params: AccountParams, body: W.WebhookCreate, response: { 201: W.WebhookCreated, ...errors } },
  }, async (req, reply) => {
    const created = await core.webhooks.createWebhook(actor(req), ref('account', req.params.accountRef), req.body);
    const body = p.created(created);
    return reply.code(201).header('location', `/api/2/accounts/${req.params.accountRef}/webhooks/${body.id}`).send(body);
  });

  app.get('/accounts/:accountRef/webhooks', {
    schema: { summary: 'Webhook endpoints of an account', operationId: 'getWebhooks', ...tag, params: AccountParams, response: { 200: Type.Array(W.Webhook), ...errors } },
  }, async (req) => (await core.webhooks.listWebhooks(actor(req), ref('account', req.params.accountRef))).map(p.webhook));

  app.get('/accounts/:accountRef/webhooks/:webhookRef', {
    schema: { summary: 'A webhook endpoint', operationId: 'getWebhook', ...tag, params: W.WebhookParams, response: { 200: W.Webhook, ...errors } },
  }, async (req) => p.webhook(await core.webhooks.getWebhook(actor(req), ...target(req.params))));

  app.patch('/accounts/:accountRef/webhooks/:webhookRef', {
    bodyLimit,
    schema: { summary: 'Change a webhook endpoint (url, events, description, enabled)', operationId: 'updateWebhook', ...tag, params: W.WebhookParams, body: W.WebhookPatch, response: { 200: W.Webhook, ...errors } },
  }, async (req) => p.webhook(await core.webhooks.updateWebhook(actor(req), ...target(req.params), req.body)));

  app.delete('/accounts/:accountRef/webhooks/:webhookRef', {
    schema: { summary: 'Delete a webhook endpoint and its deliveries', operationId: 'deleteWebhook', ...tag, params: W.WebhookParams, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.webhooks.deleteWebhook(actor(req), ...target(req.params));
    return reply.code(204).send(null);
  });

  app.post('/accounts/:accountRef/webhooks/:webhookRef/rotate-secret', {
    schema: { summary: 'Replace the signing secret (the previous one signs too for a day)', operationId: 'rotateWebhookSecret', ...tag, params: W.WebhookParams, response: { 200: W.RotatedSecret, ...errors } },
  }, async (req) => p.rotated(await core.webhooks.rotateWebhookSecret(actor(req), ...target(req.params))));

  app.get('/accounts/:accountRef/webhooks/:webhookRef/deliveries', {
    schema: { summary: 'Deliveries of a webhook endpoint, newest event first', operationId: 'getWebhookDeliveries', ...tag, params: W.WebhookParams, querystring: W.DeliveriesQuery, response: { 200: Type.Array(W.WebhookDelivery), ...errors } },
  }, async (req) =>
    (await core.webhooks.listWebhookDeliveries(actor(req), ...target(req.params), { limit: req.query.limit ?? 50, state: req.query.state })).map(p.delivery));

  app.post('/accounts/:accountRef/webhooks/:webhookRef/deliveries/:deliveryId/replay', {
    schema: { summary: 'Send a delivery again (a new series of attempts, the same webhook-id)', operationId: 'replayWebhookDelivery', ...tag, params: W.DeliveryParams, response: { 202: W.WebhookDelivery, ...errors } },
  }, async (req, reply) => reply.code(202).send(p.delivery(await core.webhooks.replayWebhookDelivery(actor(req), ...target(req.params), req.params.deliveryId))));
}
