// DomainError: the one failure type the core throws. `code` is the spec's errorCode, one of
// the catalogue (error-codes.ts), with a kind whose status the catalogue gives it; the http
// layer renders it per surface (RFC 9457, API 1 {code, message}, RFC 6749).
import type { ErrorCode, StatusOf } from './error-codes.ts';

export type ErrorKind =
  | 'invalid' // 400
  | 'unauthorized' // 401
  | 'forbidden' // 403
  | 'not-found' // 404
  | 'conflict' // 409
  | 'too-large' // 413
  | 'too-many' // 429
  | 'unavailable'; // 503

export const statusOfKind = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  'too-many': 429,
  unavailable: 503,
} as const satisfies Record<ErrorKind, number>;

/** The kinds a code may be thrown with: those whose status the catalogue lists for it. */
export type KindOf<C extends ErrorCode> = { [K in ErrorKind]: (typeof statusOfKind)[K] extends StatusOf<C> ? K : never }[ErrorKind];

export type ErrorValues = Record<string, unknown>;

export class DomainError<C extends ErrorCode = ErrorCode> extends Error {
  override name = 'DomainError';
  readonly kind: ErrorKind;
  readonly code: C;
  readonly values?: ErrorValues;
  /** Extra response headers, e.g. Retry-After on 429. */
  readonly headers?: Record<string, string>;
  constructor(kind: KindOf<C>, code: C, message: string, values?: ErrorValues, headers?: Record<string, string>) {
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

/** The types `<type>-not-found` is a code of. */
export type NotFoundType = ErrorCode extends infer C ? (C extends `${infer T}-not-found` ? T : never) : never;

export const notFound = (type: NotFoundType, id: string) =>
  new DomainError('not-found', `${type}-not-found` as const, `No ${type} with id ${id}`, { [camel(type)]: id });

function camel(type: string): string {
  return type.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) + 'Id';
}

/** A failure's text as kept for operators (outbox, webhook deliveries): one line, at most `maxChars`. */
export function failureLine(text: string, maxChars: number): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, maxChars);
}
