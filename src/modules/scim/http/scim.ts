// The SCIM 2.0 surface, /scim/v2 (RFC 7644; docs/identity.md "SCIM provisioning"): Users,
// Groups and the discovery documents, for an account's identity provider. Every request needs
// the account's SCIM token as a bearer token (nothing else is accepted, and it reaches that
// account only); bodies are JSON as `application/scim+json` or `application/json`; every
// error is SCIM's error message, never a 5xx for bad input.
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../../core/errors.ts';
import { ScimError, type ScimProvisioning, type ScimTokens } from '../core/index.ts';
import { resourceTypes, schemas, serviceProviderConfig } from './discovery.ts';

type Use = { config: { publicUrl: string }; scimTokens: ScimTokens; scimProvisioning: ScimProvisioning };

const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
const CONTENT_TYPE = 'application/scim+json; charset=utf-8';
/** Largest body (a group PATCH of 1000 members is about 60 KB). */
const BODY_LIMIT = 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    scimAccountId?: string;
  }
}

const errorBody = (status: number, detail: string, scimType: string | null) => ({
  schemas: [ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail,
});

type Q = { filter?: string; startIndex?: string; count?: string; excludedAttributes?: string };
const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));
const excludesMembers = (q: Q) => (q.excludedAttributes ?? '').split(',').some((a) => a.trim().toLowerCase() === 'members');
const listQuery = (q: Q) => ({ filter: q.filter, startIndex: num(q.startIndex), count: num(q.count), excludeMembers: excludesMembers(q) });

export const scimRoutes =
  (core: Use): FastifyPluginAsync =>
  async (app) => {
    const baseUrl = `${core.config.publicUrl}/scim/v2`;
    const account = (req: FastifyRequest) => req.scimAccountId!;

    // One parser for both types, in this scope only: a body that is not JSON is SCIM's invalidSyntax.
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser(['application/scim+json', 'application/json'], { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => {
      try {
        done(null, body === '' ? undefined : JSON.parse(body as string));
      } catch {
        done(new ScimError(400, 'The body is not valid JSON', 'invalidSyntax'), undefined);
      }
    });

    app.setErrorHandler((e: FastifyError | ScimError | DomainError, req, reply: FastifyReply) => {
      if (e instanceof ScimError) return reply.code(e.status).type(CONTENT_TYPE).send(errorBody(e.status, e.message, e.scimType));
      if (e instanceof DomainError) return reply.code(e.status).type(CONTENT_TYPE).send(errorBody(e.status, e.message, null));
      const status = typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500 ? e.statusCode : 500;
      if (status === 500) req.log.error({ err: e }, 'SCIM request failed');
      const scimType = status === 400 ? 'invalidSyntax' : null;
      return reply.code(status).type(CONTENT_TYPE).send(errorBody(status, status === 500 ? 'Internal error' : e.message, scimType));
    });

    // Every request: the account's SCIM token, before any body is read into a use case.
    app.addHook('onRequest', async (req) => {
      const header = req.headers.authorization ?? '';
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      const accountId = match ? await core.scimTokens.accountOf(match[1]!) : null;
      if (!accountId) throw new ScimError(401, 'A valid SCIM bearer token is required');
      req.scimAccountId = accountId;
    });

    app.addHook('onSend', async (_req, reply, payload) => {
      if (String(reply.getHeader('content-type') ?? '').startsWith('application/json')) reply.type(CONTENT_TYPE);
      return payload;
    });

    app.get('/ServiceProviderConfig', async () => serviceProviderConfig(baseUrl));
    app.get('/ResourceTypes', async () => {
      const all = resourceTypes(baseUrl);
      return { schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: all.length, startIndex: 1, itemsPerPage: all.length, Resources: all };
    });
    app.get<{ Params: { id: string } }>('/ResourceTypes/:id', async (req) => {
      const found = resourceTypes(baseUrl).find((r) => r.id === req.params.id);
      if (!found) throw new ScimError(404, `ResourceType ${req.params.id} not found`);
      return found;
    });
    app.get('/Schemas', async () => {
      const all = schemas(baseUrl);
      return { schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: all.length, startIndex: 1, itemsPerPage: all.length, Resources: all };
    });
    app.get<{ Params: { id: string } }>('/Schemas/:id', async (req) => {
      const found = schemas(baseUrl).find((s) => s.id === req.params.id);
      if (!found) throw new ScimError(404, `Schema ${req.params.id} not found`);
      return found;
    });

    type IdReq = { Params: { id: string } };
    const p = core.scimProvisioning;
    app.get<{ Querystring: Q }>('/Users', async (req) => p.listUsers(account(req), listQuery(req.query)));
    app.post('/Users', async (req, reply) => reply.code(201).send(await p.createUser(account(req), req.body)));
    app.get<IdReq>('/Users/:id', async (req) => p.getUser(account(req), req.params.id));
    app.put<IdReq>('/Users/:id', async (req) => p.replaceUser(account(req), req.params.id, req.body));
    app.patch<IdReq>('/Users/:id', async (req) => p.patchUser(account(req), req.params.id, req.body));
    app.delete<IdReq>('/Users/:id', async (req, reply) => {
      await p.deleteUser(account(req), req.params.id);
      return reply.code(204).send();
    });

    app.get<{ Querystring: Q }>('/Groups', async (req) => p.listGroups(account(req), listQuery(req.query)));
    app.post('/Groups', async (req, reply) => reply.code(201).send(await p.createGroup(account(req), req.body)));
    app.get<IdReq & { Querystring: Q }>('/Groups/:id', async (req) => p.getGroup(account(req), req.params.id, excludesMembers(req.query)));
    app.put<IdReq>('/Groups/:id', async (req) => p.replaceGroup(account(req), req.params.id, req.body));
    app.patch<IdReq>('/Groups/:id', async (req) => p.patchGroup(account(req), req.params.id, req.body));
    app.delete<IdReq>('/Groups/:id', async (req, reply) => {
      await p.deleteGroup(account(req), req.params.id);
      return reply.code(204).send();
    });

    app.setNotFoundHandler((req, reply) => reply.code(404).type(CONTENT_TYPE).send(errorBody(404, `No SCIM endpoint ${req.method} ${req.url}`, null)));
  };
