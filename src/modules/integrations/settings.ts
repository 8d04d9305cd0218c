// The integrations module's settings (docs/integrations.md): the third parties' addresses and
// this service's application at Autodesk; unset, what needs them answers 503 `integration-unavailable`.
import { fail, httpUrl, integer } from '../../kernel-config.ts';
import type { ModuleSettings } from '../contract.ts';

export interface IntegrationsConfig {
  /** KONEKT_API_URL: Konekt's API. */
  konektApiUrl: string | undefined;
  /** AUTODESK_API_URL, AUTODESK_CLIENT_ID, AUTODESK_CLIENT_SECRET: Autodesk's OAuth and data APIs and this service's application there (all three, or none). */
  autodesk: { apiUrl: string; clientId: string; clientSecret: string } | undefined;
  /** INTEGRATIONS_TIMEOUT: seconds one request to a third party may take. */
  timeoutSeconds: number;
}

const AUTODESK = ['AUTODESK_API_URL', 'AUTODESK_CLIENT_ID', 'AUTODESK_CLIENT_SECRET'] as const;

export const integrationsSettings: ModuleSettings<{ integrations: IntegrationsConfig }> = {
  rows: [
    {
      env: 'KONEKT_API_URL',
      default: 'unset',
      does: "Konekt's API; unset, what needs Konekt (a hub's creation and connection, a Konekt project created for a configuration) answers 503 `integration-unavailable` ([docs/integrations.md](docs/integrations.md))",
    },
    {
      env: 'AUTODESK_API_URL',
      default: 'unset',
      does: "Autodesk's OAuth and data APIs, with `AUTODESK_CLIENT_ID` and `AUTODESK_CLIENT_SECRET` (all three or none); unset, the Autodesk sign-in answers 503 `integration-unavailable`",
    },
    { env: 'AUTODESK_CLIENT_ID', default: 'unset', does: "this service's application at Autodesk (its callback `PUBLIC_URL/integrations/autodesk/callback`)" },
    { env: 'AUTODESK_CLIENT_SECRET', default: 'unset', does: "that application's secret (never printed)" },
    { env: 'INTEGRATIONS_TIMEOUT', default: '`10`', does: 'seconds one request to Konekt or Autodesk may take (1–60)' },
  ],
  read(env) {
    const autodesk = AUTODESK.map((name) => env[name] || undefined);
    if (autodesk.some(Boolean) && !autodesk.every(Boolean)) {
      fail('AUTODESK_API_URL', env.AUTODESK_API_URL ?? '', 'set together with AUTODESK_CLIENT_ID and AUTODESK_CLIENT_SECRET (all three, or none)');
    }
    return {
      integrations: {
        konektApiUrl: env.KONEKT_API_URL ? httpUrl('KONEKT_API_URL', env.KONEKT_API_URL) : undefined,
        autodesk: autodesk.every(Boolean) ? { apiUrl: httpUrl('AUTODESK_API_URL', autodesk[0]!), clientId: autodesk[1]!, clientSecret: autodesk[2]! } : undefined,
        timeoutSeconds: integer(env, 'INTEGRATIONS_TIMEOUT', 10, 1, 60),
      },
    };
  },
};
