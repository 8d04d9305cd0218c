// DomainError: the one failure type the core throws. `code` is the spec's errorCode;
// the http layer renders it per surface (RFC 9457, API 1 {code, message}, RFC 6749).
export type ErrorKind =
  | 'invalid' // 400
  | 'unauthorized' // 401
  | 'forbidden' // 403
  | 'not-found' // 404
  | 'conflict' // 409
  | 'too-large' // 413
  | 'too-many' // 429
  | 'unavailable'; // 503

export const statusOfKind: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  'too-many': 429,
  unavailable: 503,
};

export type ErrorValues = Record<string, unknown>;

export class DomainError extends Error {
  override name = 'DomainError';
  readonly kind: ErrorKind;
  readonly code: string;
  readonly values?: ErrorValues;
  /** Extra response headers, e.g. Retry-After on 429. */
  readonly headers?: Record<string, string>;
  constructor(kind: ErrorKind, code: string, message: string, values?: ErrorValues, headers?: Record<string, string>) {
    super(message);
    this.kind = kind;
    this.code = code;
    this.values = values;
    this.headers = headers;
  }

  get status(): number {
    return statusOfKind[this.kind];
  }
}

export const invalidInput = (message: string, values?: ErrorValues) =>
  new DomainError('invalid', 'invalid-input', message, values);

export const unauthorized = (message = 'Missing, invalid or expired authentication') =>
  new DomainError('unauthorized', 'unauthorized', message);

export const notFound = (type: string, id: string) =>
  new DomainError('not-found', `${type}-not-found`, `No ${type} with id ${id}`, { [camel(type)]: id });

function camel(type: string): string {
  return type.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) + 'Id';
}
