// Every errorCode the service answers, once: the HTTP statuses it is answered with and where
// it is defined. DomainError, the helpers in errors.ts and the HTTP failures take their code
// from here (typed: a code missing here fails tsc), and the OpenAPI documents' error lists
// are built from it (src/http/operation-docs.ts). test/unit/error-codes.test.ts checks it
// against the spec's "Errors" table, CONTRACT.md and the vendor's OpenAPI document.
//
// `defined` says who names the code:
//   spec     a row of the spec's "Errors" table (literally or by its pattern:
//            invalid-<type>-urn, <action>-<resource>-forbidden, list-*/view-*-forbidden,
//            deleted-<type>, <type>-not-found)
//   vendor   the vendor's API 2 OpenAPI document (shared/reference/vendor-api2-openapi.json)
//   contract CONTRACT.md
//   rfc6749  the token endpoints' `error` values (RFC 6749 §5.2), API 2's errorCode there too
//   ours     this service: an extension (operator, blobs, uploads, limits, the framework's
//            own refusals) or a code the spec leaves open (docs/decisions.md, "Error codes")
export type CodeSource = 'spec' | 'vendor' | 'contract' | 'rfc6749' | 'ours';

export interface ErrorCodeEntry {
  /** The statuses it is answered with (most have one). */
  readonly status: readonly number[];
  /** Who names it, most authoritative first. */
  readonly defined: readonly CodeSource[];
}

/** A module's catalogue row of one status (src/modules/<m>/core/errors.ts): its literal types make the code's type. */
export const codeRow = <S extends number, D extends CodeSource>(status: S, defined: D) => ({ status: [status] as const, defined: [defined] as const });

const spec = (...status: number[]) => ({ status, defined: ['spec'] }) as const;
const vendor = (...status: number[]) => ({ status, defined: ['vendor'] }) as const;
const ours = (...status: number[]) => ({ status, defined: ['ours'] }) as const;

export const ERROR_CODES = {
  // 400
  'invalid-input': { status: [400, 417, 431], defined: ['spec', 'vendor', 'contract'] },
  'invalid-account-urn': spec(400),
  'invalid-user-urn': { status: [400], defined: ['spec', 'vendor'] },
  'invalid-subscription-urn': spec(400),
  'invalid-role-urn': spec(400),
  'invalid-group-urn': spec(400),
  'invalid-project-urn': spec(400),
  'invalid-workzone-urn': spec(400),
  'invalid-file-urn': spec(400),
  'invalid-tag-list-urn': spec(400),
  'invalid-tag-urn': spec(400),
  'invalid-format-urn': spec(400),
  'subscription-not-active': vendor(400),
  'snapshot-invalid': ours(400), // an imported snapshot file that is not whole or not ours (docs/sandbox.md)
  'upload-expired': ours(400),
  'unknown-job-kind': ours(400), // a job's failure, never an HTTP answer
  // The local-disk store's signed URLs (/_blobs, docs/storage.md).
  'invalid-blob-key': ours(400),
  'length-required': ours(400),
  'content-length-mismatch': ours(400),
  'content-md5-missing': ours(400),
  'content-md5-mismatch': ours(400),
  'bad-digest': ours(400),
  'upload-incomplete': ours(400),
  // Multipart uploads, our extension (docs/files.md "Multipart uploads", docs/storage.md).
  'part-number-out-of-range': ours(400),
  'parts-missing': ours(400),
  'part-mismatch': ours(400),
  'multipart-checksum-mismatch': ours(400),
  // Webhooks, our extension (docs/webhooks.md): the URN parser's code (the module's: src/modules/webhooks/core/errors.ts).
  'invalid-webhook-urn': ours(400),
  // The token endpoints' codes: the oauth module's (src/modules/oauth/core/errors.ts).

  // 401
  unauthorized: spec(401),

  // 403
  'not-member-of-project': spec(403),
  'deleted-project': spec(403),
  'update-project-forbidden': spec(403),
  'view-file-forbidden': spec(403),
  'create-file-forbidden': spec(403),
  'view-crop-forbidden': spec(403), // the crops module's, and the files module's on a crop cover's blob (src/modules/files/core/blob-urls.ts)
  'view-report-forbidden': spec(403),
  'view-connect-job-forbidden': spec(403),
  'create-connect-import-forbidden': spec(403),
  'create-connect-export-forbidden': spec(403),
  'signature-invalid': ours(403),
  'url-expired': ours(403),
  'cross-site-request': ours(403), // the console's session endpoints called from another page (docs/security.md)

  // 404
  'account-not-found': { status: [404], defined: ['spec', 'vendor'] },
  'user-not-found': spec(404),
  'subscription-not-found': spec(404),
  'role-not-found': { status: [404, 409], defined: ['spec'] }, // 409: an account without its Manager base role
  'group-not-found': spec(404),
  'project-not-found': spec(404),
  'workzone-not-found': spec(404),
  'file-not-found': spec(404),
  'connect-job-not-found': ours(404),
  'blob-not-found': ours(404),
  'upload-not-found': ours(404),
  'route-not-found': ours(404),
  'snapshot-not-found': ours(404), // docs/sandbox.md "Snapshots"
  'not-found': ours(404),

  // 408, 409, 413, 415, 416, 429, 500
  'request-timeout': ours(408),
  conflict: ours(409),
  'upload-already-completed': ours(409),
  'upload-busy': ours(409),
  'snapshot-incompatible': ours(409), // a snapshot of another schema (docs/sandbox.md)
  'payload-too-large': ours(413),
  'unsupported-media-type': ours(415),
  'range-not-satisfiable': ours(416),
  'too-many-requests': ours(429),
  'too-many-connections': ours(429),
  'internal-error': ours(500),

  // 503
  'database-unavailable': ours(503),
} as const satisfies Record<string, ErrorCodeEntry>;

/**
 * The error codes of the modules under src/modules: each module's core adds its own by
 * declaration merging (`interface ModuleErrorCodes { 'too-many-annotations': { status:
 * readonly [409]; defined: readonly ['vendor'] } }`), and its contract gives their
 * catalogue rows (src/modules/contract.ts errorCodes; src/module-list.ts checks them).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the modules' declaration merging
export interface ModuleErrorCodes {}

/** The kernel's codes and the modules': the assembled runtime catalogue is src/modules/registries.ts ERROR_CATALOGUE. */
export type Catalogue = typeof ERROR_CODES & { readonly [C in keyof ModuleErrorCodes]: ModuleErrorCodes[C] & ErrorCodeEntry };

export type ErrorCode = keyof Catalogue;

/** The statuses a code is answered with. */
export type StatusOf<C extends ErrorCode> = Catalogue[C]['status'][number];

/** The codes answered with `status`. */
export type CodeWithStatus<S extends number> = { [C in ErrorCode]: S extends StatusOf<C> ? C : never }[ErrorCode];

