// The share surface's calls as a link's session makes them (docs/share-links.md): JSON reads
// with the session's bearer token, and a shared scan's nodes as bytes.
import { fetchWithTimeout, problemOf } from '../api.ts';
import type { SharedNodeChunk } from '../three/layers/shared-nodes.ts';

const bearer = (token: string | null): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

/** A JSON call of the share surface; a refusal is thrown as the problem it answers. */
export async function shareCall<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetchWithTimeout(path, {
    method,
    headers: { accept: 'application/json', ...bearer(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw await problemOf(res);
  return (await res.json()) as T;
}

/** One node of a shared scan: its LAZ chunk and the points it holds (filtered to the link's box by the service). */
export async function sharedNode(path: string, token: string, signal: AbortSignal): Promise<SharedNodeChunk> {
  const res = await fetchWithTimeout(path, { headers: bearer(token), signal });
  if (!res.ok) throw await problemOf(res);
  const pointCount = Number(res.headers.get('x-point-count'));
  if (!Number.isSafeInteger(pointCount) || pointCount < 0) throw new Error(`${path}: no point count in the answer`);
  return { bytes: new Uint8Array(await res.arrayBuffer()), pointCount };
}
