// The TypeBox building blocks every schema file of src/http shares (both API generations,
// the tag shapes, the operator surface): define one here rather than again in a file.
import { Type, type TSchema, type TString } from 'typebox';

export const DateTime = Type.String({ format: 'date-time' });

export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

/**
 * A date-time or null, as one schema with a type list rather than `NullableDateTime`'s
 * anyOf: fast-json-stringify picks an anyOf branch by running ajv on the value (the
 * date-time format's regular expressions, for every date of every answer: ~8% of a role
 * list's server CPU), while a type list is a typeof test. Same document meaning.
 */
export const NullableDateTime = Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date-time' });

/** A string of a fixed list, typed as the list's union. */
export const StringEnum = <T extends string>(values: readonly T[]) => Type.Unsafe<T>({ type: 'string', enum: [...values] });

/** A name as most objects carry it (projects, work zones, roles, seed objects). */
export const Name = Type.String({ minLength: 1, maxLength: 255 });

/** Path parameters `names`, each matching `id` (API 2: any reference; API 1: an id), checked further by src/http/refs.ts. */
export const pathParams = <K extends string>(id: TString, ...names: K[]) =>
  Type.Object(Object.fromEntries(names.map((n) => [n, id])) as Record<K, TString>);
