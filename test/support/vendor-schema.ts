// Validates our API 2 response bodies against the vendor's own description of API 2
// (../shared/reference/vendor-api2-openapi.json, OpenAPI 3.0.3). The document is turned
// into one JSON Schema (draft-07) that ajv understands:
//  - components.schemas become `definitions`, and every `#/components/schemas/X`
//    reference points there;
//  - OpenAPI 3.0's `nullable: true` becomes `anyOf: [<the schema>, {type: "null"}]`
//    (ajv's own `nullable` keyword only widens a sibling `type`, which is not enough for
//    the vendor's `{type: string, allOf: [{$ref: DateTime}], nullable: true}`);
//  - boolean exclusiveMaximum/exclusiveMinimum (OpenAPI 3.0) become draft-07 numbers;
//  - vendor-only keywords (example, x-tags, discriminator…) are ignored (strict: false).
// VENDOR_OPENAPI overrides the file's location.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const VENDOR_OPENAPI = process.env.VENDOR_OPENAPI || path.resolve(ROOT, '../shared/reference/vendor-api2-openapi.json');

export const vendorSpecAvailable = (file = VENDOR_OPENAPI): boolean => fs.existsSync(file);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const SCHEMA_ID = 'vendor-api2';
const COMPONENT_REF = '#/components/schemas/';

/** OpenAPI 3.0 schema → draft-07 schema: refs into `definitions`, `nullable` as a null alternative. */
export function toJsonSchema(node: Json, refBase = `${SCHEMA_ID}#/definitions/`): Json {
  if (Array.isArray(node)) return node.map((n) => toJsonSchema(n, refBase));
  if (node === null || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string' && v.startsWith(COMPONENT_REF)) out[k] = refBase + v.slice(COMPONENT_REF.length);
    else if (k === 'nullable') continue;
    else out[k] = toJsonSchema(v, refBase);
  }
  // OpenAPI 3.0 (like draft-04) spells exclusive bounds as booleans beside maximum/minimum.
  for (const [flag, bound] of [['exclusiveMaximum', 'maximum'], ['exclusiveMinimum', 'minimum']] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else delete out[flag];
  }
  if (node.nullable === true) return { anyOf: [out, { type: 'null' }] };
  return out;
}

export interface VendorOperation {
  method: string;
  path: string;
  /** Status codes (and ranges such as 4XX) the vendor declares. */
  statuses: string[];
}

export interface VendorValidator {
  operation(operationId: string): VendorOperation;
  /** Every operation of the document, by operationId. */
  operationIds(): string[];
  /** The response schema for that status (exact code, then range, then default); null when the response has no body. */
  responseSchema(operationId: string, status: number): Json | null;
  /** Validates a response body; answers the errors, empty when valid. */
  validate(operationId: string, status: number, body: unknown): ErrorObject[];
  /** Validates against one named component schema (e.g. "Role"). */
  validateComponent(name: string, value: unknown): ErrorObject[];
}

export interface VendorOptions {
  file?: string;
  /**
   * Changes to the converted component schemas before compiling, for the places where the
   * spec or CONTRACT deliberately differ from the vendor. Each use must say why.
   */
  patch?: (definitions: Record<string, JsonObject>) => void;
}

export function loadVendorValidator(opts: VendorOptions = {}): VendorValidator {
  const doc = JSON.parse(fs.readFileSync(opts.file ?? VENDOR_OPENAPI, 'utf8')) as JsonObject;
  const components = (doc.components ?? {}) as JsonObject;
  const definitions = toJsonSchema((components.schemas ?? {}) as Json) as Record<string, JsonObject>;
  opts.patch?.(definitions);

  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv) => Ajv;
  addFormats(ajv);
  ajv.addSchema({ $id: SCHEMA_ID, definitions }, SCHEMA_ID);

  const operations = new Map<string, VendorOperation & { responses: JsonObject }>();
  for (const [p, item] of Object.entries((doc.paths ?? {}) as JsonObject)) {
    for (const [method, op] of Object.entries(item as JsonObject)) {
      if (!op || typeof op !== 'object' || Array.isArray(op) || typeof op.operationId !== 'string') continue;
      const responses = (op.responses ?? {}) as JsonObject;
      operations.set(op.operationId, { method: method.toUpperCase(), path: p, statuses: Object.keys(responses), responses });
    }
  }

  const resolveResponse = (r: Json): JsonObject => {
    const ref = (r as JsonObject | null)?.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/responses/')) {
      return ((components.responses as JsonObject)[ref.slice('#/components/responses/'.length)] ?? {}) as JsonObject;
    }
    return (r ?? {}) as JsonObject;
  };

  const op = (operationId: string) => {
    const found = operations.get(operationId);
    if (!found) throw new Error(`the vendor file has no operation ${operationId}`);
    return found;
  };

  const compiled = new Map<string, ValidateFunction | null>();

  function responseSchema(operationId: string, status: number): Json | null {
    const { responses } = op(operationId);
    const r = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
    if (r === undefined) throw new Error(`${operationId} declares no response for ${status} (has ${Object.keys(responses).join(', ')})`);
    const content = resolveResponse(r).content as JsonObject | undefined;
    if (!content) return null;
    const media = (content['application/json'] ?? content['application/problem+json'] ?? Object.values(content)[0]) as JsonObject;
    return media?.schema === undefined ? null : toJsonSchema(media.schema);
  }

  function validator(key: string, schema: () => Json | null): ValidateFunction | null {
    if (!compiled.has(key)) {
      const s = schema();
      compiled.set(key, s === null ? null : ajv.compile(s as JsonObject));
    }
    return compiled.get(key)!;
  }

  return {
    operation: (operationId) => {
      const { method, path: p, statuses } = op(operationId);
      return { method, path: p, statuses };
    },
    operationIds: () => [...operations.keys()],
    responseSchema,
    validate(operationId, status, body) {
      const v = validator(`${operationId} ${status}`, () => responseSchema(operationId, status));
      if (!v) return body === undefined || body === null || body === '' ? [] : [{ message: 'the vendor declares no body' } as ErrorObject];
      return v(body) ? [] : [...(v.errors ?? [])];
    },
    validateComponent(name, value) {
      const v = validator(`component ${name}`, () => ({ $ref: `${SCHEMA_ID}#/definitions/${name}` }));
      return v!(value) ? [] : [...(v!.errors ?? [])];
    },
  };
}

/** A readable list of ajv errors for assertion messages. */
export const describeErrors = (errors: ErrorObject[]): string =>
  errors.map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params ?? {})}`).join('\n');

/**
 * A `patch` for loadVendorValidator: the vendor's URN patterns spell its own namespace
 * (`urn:cintoo:`); ours is `svc` (CONTRACT §2). Only the namespace is relaxed.
 */
export function withOurUrnNamespace(definitions: Record<string, unknown>): void {
  const walk = (n: unknown): void => {
    if (!n || typeof n !== 'object') return;
    for (const [k, v] of Object.entries(n)) {
      if (k === 'pattern' && typeof v === 'string') (n as Record<string, unknown>)[k] = v.replace('urn:cintoo:', 'urn:svc:');
      else walk(v);
    }
  };
  walk(definitions);
}

/** "METHOD /path/{}/…": an operation's method and path with the parameter names left out. */
export const operationShape = (method: string, p: string): string => `${method.toUpperCase()} ${p.replace(/\{[^}]+\}/g, '{}')}`;

/** The operation shapes our own API 2 document (GET /api/2/openapi.json) lists: what we serve. */
export function servedShapes(ourDocument: { paths: Record<string, Record<string, unknown>> }): Set<string> {
  const served = new Set<string>();
  for (const [p, item] of Object.entries(ourDocument.paths)) {
    for (const method of Object.keys(item)) served.add(operationShape(method, p.startsWith('/api/2') ? p : `/api/2${p}`));
  }
  return served;
}
