// The public API as the console calls it: bearer token from auth.ts, one refresh and one
// retry on a 401, and failures as ApiError carrying the RFC 9457 problem's fields.
import { accessToken, currentTokens, refresh } from './auth.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly requiredPermissions: string[];
  constructor(status: number, detail: string, code?: string, requiredPermissions: string[] = []) {
    super(detail);
    this.status = status;
    this.code = code;
    this.requiredPermissions = requiredPermissions;
  }
}

/** An RFC 9457 problem (API 2, /connect) or an API 1 error ({code, message}). */
interface Problem {
  title?: string;
  detail?: string;
  errorCode?: string;
  errorValues?: { requiredPermissions?: unknown };
  code?: string;
  message?: string;
}

export async function problemOf(res: Response): Promise<ApiError> {
  const p = (await res.json().catch(() => ({}))) as Problem;
  const required = Array.isArray(p.errorValues?.requiredPermissions) ? (p.errorValues.requiredPermissions as string[]) : [];
  return new ApiError(res.status, p.detail ?? p.message ?? p.title ?? `The service answered ${res.status}`, p.errorCode ?? p.code, required);
}

export const A2 = '/api/2';
/** API 1, for what only it offers (connect jobs, reports). */
export const A1 = '/api';

/** An API call; answers the parsed JSON (undefined for 204). */
export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const send = async (token: string | null) =>
    fetch(path, {
      method,
      headers: {
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const token = await accessToken();
  let res = await send(token);
  if (res.status === 401 && token) {
    // Another call may have refreshed the pair meanwhile: use its token rather than spend
    // the new refresh token too.
    const now = currentTokens();
    const next = now && now.accessToken !== token ? now : await refresh();
    if (next) res = await send(next.accessToken);
  }
  if (!res.ok) throw await problemOf(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** The UUID at the end of a URN (the console's routes and API paths use bare UUIDs). */
export const uuidOf = (urn: string): string => urn.slice(urn.lastIndexOf(':') + 1);
