// Autodesk's OAuth 2.0 and data APIs as this service uses them (docs/integrations.md
// "Autodesk"), at AUTODESK_API_URL, with the application's AUTODESK_CLIENT_ID and secret:
//   GET  /authentication/v2/authorize?response_type=code&client_id&redirect_uri&scope&state (the browser)
//   POST /authentication/v2/token (Basic client, form grant_type=authorization_code, code, redirect_uri)
//        → {access_token, refresh_token?, expires_in?}
//   GET  /userinfo (Bearer) → {email?, preferred_username?, given_name?, family_name?}
//   GET  /project/v1/hubs (Bearer) → {data: [{id, attributes: {name}}]}
//   GET  /project/v1/hubs/{hubId}/projects (Bearer) → {data: [{id, attributes: {name}}]}
import type { AutodeskClient, AutodeskHub } from '../core/ports.ts';
import { field, list, optionalString, requestJson } from './http-json.ts';

const SCOPE = 'data:read data:write account:read user-profile:read';

export function createAutodeskClient(opts: { apiUrl: string; clientId: string; clientSecret: string; timeoutSeconds: number }): AutodeskClient {
  const { apiUrl, clientId, clientSecret, timeoutSeconds } = opts;
  const get = (path: string, accessToken: string) =>
    requestJson(`${apiUrl}${path}`, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } }, timeoutSeconds);
  const named = (d: unknown) => ({ autodeskId: field(d, 'id', 'string'), name: field(field(d, 'attributes', 'object'), 'name', 'string') });

  return {
    authorizeUrl(state, redirectUri) {
      const url = new URL(`${apiUrl}/authentication/v2/authorize`);
      url.search = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, scope: SCOPE, state }).toString();
      return url.toString();
    },
    async exchangeCode(code, redirectUri) {
      const body = await requestJson(`${apiUrl}/authentication/v2/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded', accept: 'application/json',
        },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }).toString(),
      }, timeoutSeconds);
      const expires = (body as Record<string, unknown>).expires_in;
      return { accessToken: field(body, 'access_token', 'string'), refreshToken: optionalString(body, 'refresh_token'), expiresInSeconds: typeof expires === 'number' ? expires : null };
    },
    async profile(accessToken) {
      const me = await get('/userinfo', accessToken);
      const hubs: AutodeskHub[] = [];
      for (const h of list(await get('/project/v1/hubs', accessToken), 'data')) {
        const hub = named(h);
        const projects = list(await get(`/project/v1/hubs/${encodeURIComponent(hub.autodeskId)}/projects`, accessToken), 'data').map(named);
        hubs.push({ ...hub, projects });
      }
      return {
        email: optionalString(me, 'email'), userName: optionalString(me, 'preferred_username'),
        firstName: optionalString(me, 'given_name'), lastName: optionalString(me, 'family_name'), hubs,
      };
    },
    projectLink: (hubId, projectId) => `${apiUrl}/hubs/${encodeURIComponent(hubId)}/projects/${encodeURIComponent(projectId)}`,
  };
}
