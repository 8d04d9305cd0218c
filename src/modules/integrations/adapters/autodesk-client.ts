// Autodesk's OAuth 2.0 and data APIs as this service uses them (docs/integrations.md
// "Autodesk"), at AUTODESK_API_URL, with the application's AUTODESK_CLIENT_ID and secret:
//   GET  /authentication/v2/authorize?response_type=code&client_id&redirect_uri&scope&state (the browser)
//   POST /authentication/v2/token (Basic client, form grant_type=authorization_code, code, redirect_uri
//        or grant_type=refresh_token, refresh_token) → {access_token, refresh_token?, expires_in?}
//   GET  /userinfo (Bearer) → {email?, preferred_username?, given_name?, family_name?}
//   GET  /project/v1/hubs (Bearer) → {data: [{id, attributes: {name}}]}
//   GET  /project/v1/hubs/{hubId}/projects (Bearer) → {data: [{id, attributes: {name}}]}
//   POST /construction/issues/v1/projects/{projectId}/issues (Bearer, {title, description, status}) → {id}
//        (the Issues API names a project without the data API's "b." prefix)
import type { AutodeskClient, AutodeskHub } from '../core/ports.ts';
import { field, idOf, list, optionalString, requestJson } from './http-json.ts';

/** The Issues API's id of a project: the data API's id without its "b." (BIM 360/ACC) prefix. */
const issuesProjectId = (projectId: string) => projectId.replace(/^b\./, '');

const SCOPE = 'data:read data:write account:read user-profile:read';

export function createAutodeskClient(opts: { apiUrl: string; clientId: string; clientSecret: string; timeoutSeconds: number }): AutodeskClient {
  const { apiUrl, clientId, clientSecret, timeoutSeconds } = opts;
  const get = (path: string, accessToken: string) =>
    requestJson(`${apiUrl}${path}`, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } }, timeoutSeconds);
  async function token(form: Record<string, string>) {
    const body = await requestJson(`${apiUrl}/authentication/v2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded', accept: 'application/json',
      },
      body: new URLSearchParams(form).toString(),
    }, timeoutSeconds);
    const expires = (body as Record<string, unknown>).expires_in;
    return { accessToken: field(body, 'access_token', 'string'), refreshToken: optionalString(body, 'refresh_token'), expiresInSeconds: typeof expires === 'number' ? expires : null };
  }
  const named = (d: unknown) => ({ autodeskId: field(d, 'id', 'string'), name: field(field(d, 'attributes', 'object'), 'name', 'string') });

  return {
    authorizeUrl(state, redirectUri) {
      const url = new URL(`${apiUrl}/authentication/v2/authorize`);
      url.search = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, scope: SCOPE, state }).toString();
      return url.toString();
    },
    exchangeCode: (code, redirectUri) => token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }),
    refresh: (refreshToken) => token({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    async createIssue(accessToken, projectId, issue, key) {
      const body = await requestJson(`${apiUrl}/construction/issues/v1/projects/${encodeURIComponent(issuesProjectId(projectId))}/issues`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json', 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ title: issue.title, description: `${issue.description}\n\n${issue.link}`.trim(), status: 'open' }),
      }, timeoutSeconds);
      return idOf(body);
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
    issueLink: (hubId, projectId, issueId) =>
      `${apiUrl}/hubs/${encodeURIComponent(hubId)}/projects/${encodeURIComponent(projectId)}/issues/${encodeURIComponent(issueId)}`,
  };
}
