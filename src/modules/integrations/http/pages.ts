// The end of the Autodesk sign-in (outside the API: the browser comes back from Autodesk
// without a bearer token; the single-use state proves whose sign-in it is). Redirects to the
// `redirectUri` given to getAutodeskConnectionUrl; a bad state answers 400 `autodesk-sign-in-failed`.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Integrations } from '../index.ts';
import * as I from './schemas.ts';

export const autodeskCallbackPage =
  (use: { integrations: Integrations }): FastifyPluginAsync =>
  async (root) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/integrations/autodesk/callback', { schema: { hide: true, querystring: I.CallbackQuery } }, async (req, reply) =>
      reply.redirect(await use.integrations.completeAutodeskConnection(req.query.state, req.query.code, req.query.error), 302));
  };
