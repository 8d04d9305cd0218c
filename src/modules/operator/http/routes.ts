// The operator surface (CONTRACT §3), ours and not the vendor's: seed, reset, outbox,
// tokens for CI, signing-key rotation, the sandbox clock. Without OPERATOR_TOKEN every path answers 404.
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requireOperator, sandboxOnly } from './guards.ts';
import { Email, SeedDocument } from './schemas.ts';
import type { ApplySeed, SeedDocument as SeedDoc } from '../core/seed.ts';
import type { Operator } from '../core/operator.ts';
import type { AuthenticateOperator } from '../core/operator-auth.ts';
import type { SandboxClock } from '../core/sandbox-clock.ts';
import type { SigningKeys } from '../../oauth/index.ts';
import type { RequestGate } from '../../sandbox/index.ts';

/** What the routes call: the module's use cases, the OAuth module's signing keys, the sandbox module's request gate, the settings. */
export interface OperatorRouteUse {
  config: { sandbox: boolean };
  applySeed: ApplySeed;
  operator: Operator;
  authenticateOperator: AuthenticateOperator | null;
  sandboxClock: SandboxClock;
  requestGate: RequestGate;
  signingKeys: SigningKeys;
}

export const operatorRoutes =
  (core: OperatorRouteUse): FastifyPluginAsync =>
  async (root) => {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    app.addHook('onRequest', requireOperator(core));
    const hide = { hide: true };

    app.post('/seed', { schema: { ...hide, body: SeedDocument }, bodyLimit: 16 * 1024 * 1024 }, async (req) =>
      core.applySeed(req.body as SeedDoc),
    );

    // Under the request gate, as a snapshot restore: no request of this node sees half a reset.
    app.post('/reset', { schema: hide }, async () => core.requestGate.exclusive(() => core.operator.reset()));

    app.get('/outbox', { schema: hide }, async () => core.operator.outbox());

    app.post(
      '/tokens',
      { schema: { ...hide, body: Type.Object({ email: Email }, { additionalProperties: false }) } },
      async (req) => core.operator.issueTokens(req.body.email),
    );

    app.post('/signing-keys/rotate', { schema: hide }, async () => core.signingKeys.rotate());

    app.get('/clock', { schema: hide, onRequest: sandboxOnly(core) }, async () => core.sandboxClock.state());
    // Forward or back (docs/operator-api.md "The sandbox clock"): by a number of seconds, or to an instant.
    const HUNDRED_YEARS = 100 * 365 * 24 * 3600;
    app.post(
      '/clock',
      {
        schema: {
          ...hide,
          body: Type.Union([
            Type.Object({ advanceSeconds: Type.Number({ minimum: -HUNDRED_YEARS, maximum: HUNDRED_YEARS }) }, { additionalProperties: false }),
            Type.Object({ to: Type.String({ format: 'date-time' }) }, { additionalProperties: false }),
          ]),
        },
        onRequest: sandboxOnly(core),
      },
      async (req) => ('to' in req.body ? core.sandboxClock.setTo(new Date(req.body.to)) : core.sandboxClock.advance(req.body.advanceSeconds)),
    );
  };
