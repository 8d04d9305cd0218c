// One started service per SDK e2e file: SANDBOX (clock control), an operator token,
// /metrics behind a token (to count token-endpoint answers), PostgreSQL when
// TEST_DATABASE_URL is set, else embedded PGlite; the project world of the service's tests.
import { startServer, stopAndRemove, type RunningServer } from '../../../../test/support/server.ts';
import { TEST_DATABASE_URL, freshPostgresUrl } from '../../../../test/support/database.ts';
import { operatorCall, bearerCall } from '../../../../test/support/e2e-http.ts';
import { ACCOUNT_ID, PROJECT_SEED, SUB_A, emailOf } from '../../../../test/support/projects.ts';
import { sampleValue } from '../../../../test/support/metrics-text.ts';

export const OPERATOR_TOKEN = 'sdk-e2e-operator-token-of-24+';
export const METRICS_TOKEN = 'sdk-e2e-metrics-token-of-24-chars';

export interface SdkWorld {
  url: string;
  server: RunningServer;
  accountId: string;
  /** A project of the owner, with its root zone. */
  projectId: string;
  zoneId: string;
  owner: { email: string; password: string };
  operator(method: string, path: string, body?: unknown): Promise<any>;
  /** An access token of the owner from the operator API. */
  ownerToken(): Promise<string>;
  /** A sample of GET /metrics (0 when absent). */
  metric(name: string, labels: Record<string, string>): Promise<number>;
  /** The files of a project (API 2, as its owner), those of one zone when given. */
  filesOf(projectId: string, zoneId?: string): Promise<FileRow[]>;
  /** Stops and starts the service on the same port, data and database (a housekeeping pass runs at start). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export interface FileRow {
  id: string;
  name: string;
  md5: string;
  blobName: string;
  workzoneId: string;
}

export async function startSdkWorld(env: Record<string, string> = {}): Promise<SdkWorld> {
  const db = TEST_DATABASE_URL ? await freshPostgresUrl(TEST_DATABASE_URL) : undefined;
  const serverEnv = { OPERATOR_TOKEN, METRICS_TOKEN, SANDBOX: '1', ...(db ? { DATABASE_URL: db.url } : {}), ...env };
  let server = await startServer(serverEnv);
  const operator = (method: string, path: string, body?: unknown) => operatorCall(server.url, OPERATOR_TOKEN, method, path, body);
  await operator('POST', '/seed', PROJECT_SEED);
  const owner = { email: emailOf('projectOwner'), password: 'projectOwner-password-1' };
  const ownerToken = async () => (await operator('POST', '/tokens', { email: owner.email })).access_token as string;
  const project = await bearerCall(server.url, await ownerToken(), 'POST', `/api/2/accounts/${ACCOUNT_ID}/projects`, { name: 'SDK e2e', subscriptionId: SUB_A });
  if (project.status !== 201) throw new Error(`project: ${project.status} ${JSON.stringify(project.body)}`);
  return {
    url: server.url,
    get server() {
      return server;
    },
    accountId: ACCOUNT_ID,
    projectId: project.body.id,
    zoneId: project.body.rootWorkzoneId,
    owner,
    operator,
    ownerToken,
    async metric(name, labels) {
      const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`/metrics: ${res.status} ${text}`);
      return sampleValue(text, name, labels) ?? 0;
    },
    async filesOf(projectId, zoneId) {
      const res = await bearerCall(server.url, await ownerToken(), 'GET', `/api/2/accounts/${ACCOUNT_ID}/projects/${projectId}/files`);
      if (res.status !== 200) throw new Error(`files: ${res.status} ${JSON.stringify(res.body)}`);
      return (res.body as FileRow[]).filter((f) => zoneId === undefined || f.workzoneId === zoneId);
    },
    async restart() {
      await server.stop();
      server = await startServer({ ...serverEnv, PORT: String(server.port) }, { dataDir: server.dataDir });
    },
    stop: () => stopAndRemove(server, db),
  };
}
