// The webhooks module's settings (docs/webhooks.md): which targets deliveries may reach and
// the relay's pace.
import { bool, integer, portList } from '../../kernel-config.ts';
import type { ModuleSettings } from '../contract.ts';

export interface WebhooksConfig {
  /** WEBHOOKS_ALLOW_PRIVATE_TARGETS: deliveries may go to loopback, private, link-local and other non-public addresses. */
  allowPrivateTargets: boolean;
  /** WEBHOOKS_TARGET_PORTS: ports webhook URLs may use besides 80 and 443, or 'any'. */
  targetPorts: readonly number[] | 'any';
  /** WEBHOOKS_TIMEOUT: seconds one delivery attempt may take, connection to response. */
  timeoutSeconds: number;
  /** WEBHOOKS_RETRY_SECONDS: the wait after a delivery's first failed attempt, doubling after each. */
  firstRetrySeconds: number;
  /** WEBHOOKS_RELAY_INTERVAL: seconds between two relay passes of a node. */
  relayIntervalSeconds: number;
  /** WEBHOOKS_SENDS_PER_ACCOUNT: an account's endpoints sent to at once, across the nodes. */
  sendsPerAccount: number;
}

export const webhooksSettings: ModuleSettings<{ webhooks: WebhooksConfig }> = {
  rows: [
    {
      env: 'WEBHOOKS_ALLOW_PRIVATE_TARGETS',
      default: 'off',
      does:
        '`1`/`true`/`yes`/`on`: webhook deliveries may go to loopback, private, link-local and other non-public addresses (tests, closed networks). ' +
        'Off, such targets are refused at registration (address literals) and at each send (the resolved address): see [docs/webhooks.md](docs/webhooks.md#targets-ssrf)',
    },
    {
      env: 'WEBHOOKS_TARGET_PORTS',
      default: 'unset',
      does: 'ports webhook URLs may use besides 80 and 443: a comma list (`8443,9000`), or `any` (tests, closed networks); checked at registration and at each send',
    },
    { env: 'WEBHOOKS_TIMEOUT', default: '`10`', does: 'seconds one webhook delivery attempt may take, connection to response (1–60)' },
    { env: 'WEBHOOKS_RETRY_SECONDS', default: '`30`', does: "the wait after a delivery's first failed attempt, doubling after each (at most 6 hours between two), for a day (1–3600)" },
    { env: 'WEBHOOKS_RELAY_INTERVAL', default: '`2`', does: 'seconds between two webhook relay passes of a node (1–3600)' },
    {
      env: 'WEBHOOKS_SENDS_PER_ACCOUNT',
      default: '`4`',
      does: "an account's webhook endpoints sent to at once, across the nodes (1–50): one tenant's slow endpoints cannot take every sender (see [docs/webhooks.md](docs/webhooks.md#delivery))",
    },
  ],
  read: (env) => ({
    webhooks: {
      allowPrivateTargets: bool(env, 'WEBHOOKS_ALLOW_PRIVATE_TARGETS'),
      targetPorts: portList(env, 'WEBHOOKS_TARGET_PORTS'),
      timeoutSeconds: integer(env, 'WEBHOOKS_TIMEOUT', 10, 1, 60),
      firstRetrySeconds: integer(env, 'WEBHOOKS_RETRY_SECONDS', 30, 1, 3600),
      relayIntervalSeconds: integer(env, 'WEBHOOKS_RELAY_INTERVAL', 2, 1, 3600),
      sendsPerAccount: integer(env, 'WEBHOOKS_SENDS_PER_ACCOUNT', 4, 1, 50),
    },
  }),
};
