// A small site for the console's browser tests and its screenshots (npm run
// console:screenshots): an account with a project whose zone holds a LAS scan, a PDF, and
// two tag lists in their colours (pumps and tanks, valves) placed on the scan, all made
// through the public API as a user would.
import crypto from 'node:crypto';
import type { OAuthServer } from './oauth-client.ts';
import { apiAs, lasFileOf } from './console.ts';

export const DEMO_OWNER = { email: 'mia@console.test', password: 'mia-password-1' };
export const DEMO_VIEWER = { email: 'vic@console.test', password: 'vic-password-1' };

const uuidOf = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);
const E = 500_000;
const N = 5_000_000;

export interface DemoSite {
  accountId: string;
  projectId: string;
  zoneId: string;
  /** /console/a/{account}/p/{project}?zone={zone}&tab=… */
  zonePath(tab?: string): string;
  lists: { id: string; name: string; color: string; tags: string[] }[];
}

/** Signs, PUTs and registers one file into a zone through the signed-URL flow. */
export async function uploadThroughApi(server: OAuthServer, email: string, base: string, zoneId: string, fileName: string, bytes: Buffer): Promise<void> {
  const dot = fileName.lastIndexOf('.');
  const item = { name: fileName.slice(0, dot), extension: fileName.slice(dot + 1), size: bytes.length, md5: crypto.createHash('md5').update(bytes).digest('hex') };
  const signed = await apiAs(server, email, 'POST', `${base}/workzones/${zoneId}/bulk-files`, [item]);
  const f = signed.files[0];
  const put = await fetch(f.url, {
    method: 'PUT',
    body: new Uint8Array(bytes),
    headers: { 'content-md5': crypto.createHash('md5').update(bytes).digest('base64'), 'cache-control': 'max-age=2592000', 'x-ms-blob-type': 'BlockBlob' },
  });
  if (!put.ok) throw new Error(`PUT ${fileName}: ${put.status} ${await put.text()}`);
  await apiAs(server, email, 'POST', `${base}/workzones/${zoneId}/bulk-files`, [{ ...item, blobName: f.blobName }]);
}

/** The demo world: seeded users and account, then the project, files and tags through the API. */
export async function demoSite(server: OAuthServer): Promise<DemoSite> {
  await server.seed({
    users: [DEMO_OWNER, DEMO_VIEWER].map((u) => ({ ...u, firstName: u.email.slice(0, 3), lastName: 'Console' })),
    accounts: [{ name: 'Console Inc', owner: DEMO_OWNER.email, projectManagers: [DEMO_OWNER.email], members: [DEMO_VIEWER.email], subscriptions: [{ name: 'Main', isActive: true }] }],
  });
  const email = DEMO_OWNER.email;
  const [account] = await apiAs(server, email, 'GET', '/api/2/accounts');
  const accountId = uuidOf(account.id);
  const project = await apiAs(server, email, 'POST', `/api/2/accounts/${accountId}/projects`, { name: 'Refinery north', subscriptionId: account.subscriptions[0].id });
  const projectId = uuidOf(project.id);
  const base = `/api/2/accounts/${accountId}/projects/${projectId}`;
  await apiAs(server, email, 'POST', `/api/2/accounts/${accountId}/projects`, { name: 'Tank farm survey', subscriptionId: account.subscriptions[0].id });
  const zone = await apiAs(server, email, 'POST', `${base}/workzones`, { name: 'Pump house', parentWorkzoneId: project.rootWorkzoneId });
  const zoneId = uuidOf(zone.id);
  await apiAs(server, email, 'POST', `${base}/workzones`, { name: 'Tank farm', parentWorkzoneId: project.rootWorkzoneId });

  // A scan: the floor of the pump house (a 60 × 40 grid, 1 cm resolution) with a ridge.
  const W = 60;
  const H = 40;
  const scan = lasFileOf(W * H, (i) => {
    const x = (i % W) * 0.25;
    const y = Math.floor(i / W) * 0.25;
    return [E - 2 + x, N - 6 + y, 9.5 + 0.15 * Math.sin(x) * Math.cos(y)];
  });
  await uploadThroughApi(server, email, base, zoneId, 'pump-house.las', scan);
  await uploadThroughApi(server, email, base, zoneId, 'inspection-report.pdf', Buffer.from('%PDF-1.4 inspection report'));

  const s = Math.SQRT1_2;
  const lists: DemoSite['lists'] = [];
  const make = async (name: string, color: string, tags: { id: string; name: string; class: string; boundingBox?: number[]; orientedBoundingBox?: number[] }[]) => {
    const list = await apiAs(server, email, 'POST', `${base}/tag-lists`, { workzoneId: zoneId, tagListType: '3d', name, color });
    await apiAs(server, email, 'POST', `${base}/tag-lists/${uuidOf(list.id)}/tags/bulk`, { create: tags.map((data) => ({ data })) });
    lists.push({ id: uuidOf(list.id), name, color, tags: tags.map((t) => t.id) });
  };
  await make('Equipment', '#2f7fd8', [
    { id: 'P-101', name: 'Feed pump', class: 'pump', boundingBox: [E, N, 9.6, E + 2, N + 1, 11.1] },
    { id: 'P-102', name: 'Booster pump', class: 'pump', boundingBox: [E + 3, N, 9.6, E + 4.5, N + 1, 10.8] },
    { id: 'T-201', name: 'Day tank', class: 'tank', boundingBox: [E + 6, N - 1, 9.6, E + 9, N + 2, 13.6] },
  ]);
  await make('Valves', '#d9822b', [
    { id: 'V-301', name: 'Isolation valve', class: 'valve', orientedBoundingBox: [E + 3, N - 4, 10.5, 0, 0, s, s, 3, 0.6, 0.6] },
    { id: 'V-302', name: 'Check valve', class: 'valve', boundingBox: [E + 0.5, N - 3, 9.6, E + 1.3, N - 2.2, 10.4] },
  ]);
  return {
    accountId,
    projectId,
    zoneId,
    zonePath: (tab = 'files') => `/console/a/${accountId}/p/${projectId}?zone=${zoneId}&tab=${tab}`,
    lists,
  };
}
