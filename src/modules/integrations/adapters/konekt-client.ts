// Konekt's API as this service uses it (docs/integrations.md "Konekt"), at KONEKT_API_URL:
//   GET  /v1/hub            (Bearer <hub token>) → {id, name, beta, projects: [{id, name}]}
//   POST /v1/hub/projects   (Bearer <hub token>, {name}) → {id: integer}
//   POST /v1/hub/projects/{id}/issues (Bearer <hub token>, Idempotency-Key, {title, description, externalLink}) → {id}
import type { KonektClient, KonektHub } from '../core/ports.ts';
import { field, idOf, list, requestJson } from './http-json.ts';

export function createKonektClient(opts: { apiUrl: string; timeoutSeconds: number }): KonektClient {
  const { apiUrl, timeoutSeconds } = opts;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}`, accept: 'application/json' });
  return {
    async hub(token): Promise<KonektHub> {
      const body = await requestJson(`${apiUrl}/v1/hub`, { headers: bearer(token) }, timeoutSeconds);
      return {
        id: String(field(body, 'id', 'string')),
        name: field(body, 'name', 'string'),
        beta: field(body, 'beta', 'boolean'),
        projects: list(body, 'projects').map((p) => ({ id: String((p as Record<string, unknown>)?.id ?? ''), name: field(p, 'name', 'string') })),
      };
    },
    async createProject(token, name) {
      const body = await requestJson(`${apiUrl}/v1/hub/projects`, {
        method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json' }, body: JSON.stringify({ name }),
      }, timeoutSeconds);
      return field(body, 'id', 'number');
    },
    async createIssue(token, konektProjectId, issue, key) {
      const body = await requestJson(`${apiUrl}/v1/hub/projects/${konektProjectId}/issues`, {
        method: 'POST', headers: { ...bearer(token), 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ title: issue.title, description: issue.description, externalLink: issue.link }),
      }, timeoutSeconds);
      return idOf(body);
    },
    issueLink: (hubId, konektProjectId, issueId) => `${apiUrl}/hubs/${encodeURIComponent(hubId)}/projects/${konektProjectId}/issues/${encodeURIComponent(issueId)}`,
    projectLink: (hubId, konektProjectId) => `${apiUrl}/hubs/${encodeURIComponent(hubId)}/projects/${konektProjectId}`,
    hubLink: (hubId) => `${apiUrl}/hubs/${encodeURIComponent(hubId)}`,
  };
}
