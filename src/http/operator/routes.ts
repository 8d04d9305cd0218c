// The operator surface (CONTRACT §3), ours and not the vendor's: seed, reset, outbox,
// tokens for CI, signing-key rotation, the sandbox clock. Without OPERATOR_TOKEN every path answers 404.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Core } from '../../compose.ts';
import { DomainError } from '../../core/errors.ts';
import { bearerToken } from '../auth.ts';
import { Email, SeedDocument } from './schemas.ts';
import type { SeedDocument as SeedDoc } from '../../core/operator/index.ts';

const routeNotFound = (url: string) =>
  new DomainError('not-found', 'route-not-found', `No route ${url.split('?')[0]!.slice(0, 200)}`);

export const operatorRoutes =
  (core: Core): FastifyPluginAsync =>
  async (root) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const authenticate = core.authenticateOperator;
    app.addHook('onRequest', async (req) => {
      if (!authenticate) throw routeNotFound(req.url);
      await authenticate(bearerToken(req), req.ip);
    });
    const hide = { hide: true };

    app.post('/seed', { schema: { ...hide, body: SeedDocument }, bodyLimit: 16 * 1024 * 1024 }, async (req) =>
      core.applySeed(req.body as SeedDoc),
    );

    app.post('/reset', { schema: hide }, async () => core.operator.reset());

    app.get('/outbox', { schema: hide }, async () => core.operator.outbox());

    app.post(
      '/tokens',
      { schema: { ...hide, body: Type.Object({ email: Email }, { additionalProperties: false }) } },
      async (req) => core.operator.issueTokens(req.body.email),
    );

    app.post('/signing-keys/rotate', { schema: hide }, async () => core.signingKeys.rotate());

    const sandboxOnly = async (req: { url: string }) => {
      if (!core.config.sandbox) throw routeNotFound(req.url);
    };
    app.get('/clock', { schema: hide, onRequest: sandboxOnly }, async () => core.sandboxClock.state());
    app.post(
      '/clock',
      {
        schema: {
          ...hide,
          body: Type.Object(
            { advanceSeconds: Type.Number({ minimum: 0, maximum: 100 * 365 * 24 * 3600 }) },
            { additionalProperties: false },
          ),
        },
        onRequest: sandboxOnly,
      },
      async (req) => core.sandboxClock.advance(req.body.advanceSeconds),
    );
  };
