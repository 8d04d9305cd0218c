// Every refusal of the service as one typed exception. The three surfaces' bodies:
// API 2: RFC 9457 problem JSON {type, status, title, detail, errorCode, ...values};
// API 1: {code, message, ...values}; the token endpoints: {error, error_description, errorCode?}.
export type ErrorSurface = 'problem' | 'api1' | 'oauth' | 'http' | 'network';

const PROBLEM_MEMBERS = new Set(['type', 'status', 'title', 'detail', 'instance', 'errorCode']);
const API1_MEMBERS = new Set(['code', 'message']);
const OAUTH_MEMBERS = new Set(['error', 'error_description', 'errorCode']);

export class ScanbaseError extends Error {
  override readonly name = 'ScanbaseError';
  /** HTTP status; 0 when no answer came (connection refused or reset, aborted). */
  readonly status: number;
  /** The service's error code (`project-not-found`, `unauthorized`, `invalid_grant`…). */
  readonly errorCode: string;
  /** The error's values: the body's members other than the surface's own (e.g. `{projectId}`). */
  readonly errorValues: Record<string, unknown>;
  readonly surface: ErrorSurface;
  /** Value of Retry-After in seconds, when the answer had one. */
  readonly retryAfterSeconds: number | undefined;
  readonly method: string;
  readonly url: string;

  constructor(init: {
    status: number;
    errorCode: string;
    message: string;
    errorValues?: Record<string, unknown>;
    surface: ErrorSurface;
    retryAfterSeconds?: number;
    method: string;
    url: string;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.errorCode = init.errorCode;
    this.errorValues = init.errorValues ?? {};
    this.surface = init.surface;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.method = init.method;
    this.url = init.url;
  }
}

/** The body's `errorValues` object when it has one (the service's and the vendor's shape), else its other members. */
const rest = (body: Record<string, unknown>, own: Set<string>) =>
  body.errorValues && typeof body.errorValues === 'object' && !Array.isArray(body.errorValues)
    ? (body.errorValues as Record<string, unknown>)
    : Object.fromEntries(Object.entries(body).filter(([k]) => !own.has(k)));

/** Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP date; seconds from `now`. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The typed exception of a body the service answered with a status of 400 or more. */
export function errorFromBody(
  status: number,
  body: unknown,
  context: { method: string; url: string; retryAfter?: string | null; contentType?: string | null },
): ScanbaseError {
  const base = { status, method: context.method, url: context.url, retryAfterSeconds: parseRetryAfter(context.retryAfter ?? null) };
  const b = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  if (b && (context.contentType?.includes('application/problem+json') || (typeof b.title === 'string' && 'status' in b))) {
    return new ScanbaseError({
      ...base,
      surface: 'problem',
      errorCode: typeof b.errorCode === 'string' ? b.errorCode : String(b.type ?? 'about:blank'),
      message: String(b.detail ?? b.title ?? `HTTP ${status}`),
      errorValues: rest(b, PROBLEM_MEMBERS),
    });
  }
  if (b && typeof b.error === 'string') {
    return new ScanbaseError({
      ...base,
      surface: 'oauth',
      errorCode: b.error,
      message: String(b.error_description ?? b.error),
      errorValues: rest(b, OAUTH_MEMBERS),
    });
  }
  if (b && typeof b.code === 'string') {
    return new ScanbaseError({
      ...base,
      surface: 'api1',
      errorCode: b.code,
      message: String(b.message ?? b.code),
      errorValues: rest(b, API1_MEMBERS),
    });
  }
  const text = typeof body === 'string' ? body.slice(0, 200) : '';
  return new ScanbaseError({ ...base, surface: 'http', errorCode: `http-${status}`, message: text || `HTTP ${status}` });
}

/** Reads a failed answer's body (JSON or text) into a ScanbaseError. */
export async function errorFromResponse(res: Response, method: string): Promise<ScanbaseError> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: keep the text */
  }
  return errorFromBody(res.status, body, {
    method,
    url: res.url,
    retryAfter: res.headers.get('retry-after'),
    contentType: res.headers.get('content-type'),
  });
}
