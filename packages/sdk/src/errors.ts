// Every refusal of the service as one typed exception. The three surfaces' bodies:
// API 2: RFC 9457 problem JSON {type, status, title, detail, errorCode, ...values};
// API 1: {code, message, ...values}; the token endpoints: {error, error_description, errorCode?}.
export type ErrorSurface = 'problem' | 'api1' | 'oauth' | 'http' | 'network';

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

type Body = Record<string, unknown>;

/** How each surface's body is recognised, and which members are its own (not error values). */
const SURFACES: { surface: ErrorSurface; is: (b: Body, contentType: string) => boolean; code: (b: Body) => string; message: (b: Body) => unknown; own: Set<string> }[] = [
  {
    surface: 'problem',
    is: (b, ct) => ct.includes('application/problem+json') || (typeof b.title === 'string' && 'status' in b),
    code: (b) => (typeof b.errorCode === 'string' ? b.errorCode : String(b.type ?? 'about:blank')),
    message: (b) => b.detail ?? b.title,
    own: new Set(['type', 'status', 'title', 'detail', 'instance', 'errorCode']),
  },
  { surface: 'oauth', is: (b) => typeof b.error === 'string', code: (b) => String(b.error), message: (b) => b.error_description ?? b.error, own: new Set(['error', 'error_description', 'errorCode']) },
  { surface: 'api1', is: (b) => typeof b.code === 'string', code: (b) => String(b.code), message: (b) => b.message ?? b.code, own: new Set(['code', 'message']) },
];

/** The typed exception of a body the service answered with a status of 400 or more. */
export function errorFromBody(
  status: number,
  body: unknown,
  context: { method: string; url: string; retryAfter?: string | null; contentType?: string | null },
): ScanbaseError {
  const base = { status, method: context.method, url: context.url, retryAfterSeconds: parseRetryAfter(context.retryAfter ?? null) };
  const b = body && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : undefined;
  const s = b && SURFACES.find((x) => x.is(b, context.contentType ?? ''));
  if (b && s) {
    return new ScanbaseError({ ...base, surface: s.surface, errorCode: s.code(b), message: String(s.message(b) ?? `HTTP ${status}`), errorValues: rest(b, s.own) });
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
