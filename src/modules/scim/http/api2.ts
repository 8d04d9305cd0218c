// API 2: an account's SCIM token (our extension; docs/identity.md "SCIM provisioning").
// Account administrators only (the use cases check account:administrators:read/write).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { formatUrn } from '../../../core/ids/urn.ts';
import { api2Naming } from '../../../http/api2/naming.ts';
import * as S from '../../../http/api2/schemas.ts';
import type { ScimTokens, ScimTokenRecord } from '../core/index.ts';

type Use = { config: { urnNamespace: string; publicUrl: string }; scimTokens: ScimTokens };

const TokenInfo = Type.Object({
  baseUrl: Type.String({ description: 'The SCIM base address to give the identity provider' }),
  hasToken: Type.Boolean(),
  createdAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdBy: Type.Union([Type.String(), Type.Null()]),
});
const NewToken = Type.Object({
  baseUrl: Type.String(),
  token: Type.String({ description: 'The bearer token, shown this once' }),
  createdAt: Type.String({ format: 'date-time' }),
});

export function scimTokenRoutes(root: FastifyInstance, core: Use): void {
  const app = root.withTypeProvider<TypeBoxTypeProvider>();
  const { ref, actor, errors } = api2Naming(core.config.urnNamespace);
  const tag = { tags: ['SCIM provisioning'] };
  const baseUrl = `${core.config.publicUrl}/scim/v2`;
  const account = (params: { accountRef: string }) => ref('account', params.accountRef);
  const info = (t: ScimTokenRecord | null) => ({
    baseUrl,
    hasToken: t !== null,
    createdAt: t?.createdAt.toISOString() ?? null,
    createdBy: t?.createdBy ? formatUrn(core.config.urnNamespace, 'user', t.createdBy) : null,
  });

  app.get('/accounts/:accountRef/scim/token', {
    schema: { summary: "Whether the account has a SCIM token (never the token)", operationId: 'getScimToken', ...tag, params: S.AccountParams, response: { 200: TokenInfo, ...errors } },
  }, async (req) => info((await core.scimTokens.show(actor(req), account(req.params))).token));

  app.post('/accounts/:accountRef/scim/token', {
    bodyLimit: 1024,
    schema: { summary: "Create the account's SCIM token, replacing the one before (shown once)", operationId: 'createScimToken', ...tag, params: S.AccountParams, response: { 201: NewToken, ...errors } },
  }, async (req, reply) => {
    const made = await core.scimTokens.rotate(actor(req), account(req.params));
    return reply.code(201).header('cache-control', 'no-store').send({ baseUrl, token: made.token, createdAt: made.record.createdAt.toISOString() });
  });

  app.delete('/accounts/:accountRef/scim/token', {
    schema: { summary: "Revoke the account's SCIM token", operationId: 'deleteScimToken', ...tag, params: S.AccountParams, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await core.scimTokens.revoke(actor(req), account(req.params));
    return reply.code(204).send(null);
  });
}
