// Request bodies name only declared properties (docs/security.md "Request fidelity"): a
// typo such as `creates` for `create` is refused with 400 invalid-input naming it, never
// ignored. Every route's body schema is closed when the route is registered, so a new
// schema cannot forget it; a body that is deliberately open says so with an explicit
// `additionalProperties: true` or `patternProperties` (a map keyed by ids, a form).
import type { RouteOptions } from 'fastify';

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const isObjectSchema = (s: Schema) => s.type === 'object' || isObject(s.properties);

/** Keywords whose value is one subschema, or a list of them, or a map of them. */
const ONE = ['items', 'additionalItems', 'contains', 'not', 'if', 'then', 'else', 'propertyNames'] as const;
const MANY = ['anyOf', 'oneOf', 'prefixItems'] as const;
const MAP = ['properties', 'patternProperties', 'dependentSchemas'] as const;

/**
 * A copy of `schema` where every object schema that does not declare `additionalProperties`
 * (nor `patternProperties`) refuses undeclared properties. The route's schema is copied, not
 * changed in place: the same TypeBox objects serve as response schemas, where closing them
 * would drop fields from answers. An `allOf` over object schemas is refused: each member
 * closed would refuse the others' properties (write one Type.Object instead).
 */
export function closeSchema(schema: unknown, where = 'body'): unknown {
  if (Array.isArray(schema)) return schema.map((s, i) => closeSchema(s, `${where}[${i}]`));
  if (!isObject(schema)) return schema;
  const out: Schema = { ...schema };
  for (const k of ONE) if (k in out) out[k] = closeSchema(out[k], `${where}.${k}`);
  for (const k of MANY) if (Array.isArray(out[k])) out[k] = closeSchema(out[k], `${where}.${k}`);
  for (const k of MAP) {
    const m = out[k];
    if (isObject(m)) out[k] = Object.fromEntries(Object.entries(m).map(([p, s]) => [p, closeSchema(s, `${where}.${p}`)]));
  }
  if (isObject(out.additionalProperties)) out.additionalProperties = closeSchema(out.additionalProperties, `${where}.*`);
  if (Array.isArray(out.allOf)) {
    if (out.allOf.some((s) => isObject(s) && isObjectSchema(s))) {
      throw new Error(`${where}: allOf over object schemas cannot be closed; declare one object with every property`);
    }
    out.allOf = closeSchema(out.allOf, `${where}.allOf`);
  }
  if (isObjectSchema(out) && !('additionalProperties' in out) && !('patternProperties' in out)) {
    out.additionalProperties = false;
  }
  return out;
}

/** The onRoute hook: every route's body schema, closed (see closeSchema). */
export function closeBodySchema(route: RouteOptions): void {
  const body = route.schema?.body;
  if (body === undefined) return;
  route.schema = { ...route.schema, body: closeSchema(body, `${String(route.method)} ${route.url} body`) };
}
