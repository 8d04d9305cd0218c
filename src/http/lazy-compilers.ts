// Route schemas compiled on a route's first use instead of at start. Fastify compiles every
// route's validators (ajv) and response serializers (fast-json-stringify) when the app is
// made ready: a start-up profile on PostgreSQL put ajv alone at a quarter of the CPU from
// process start to the first /healthz 200, for routes most nodes serve rarely. These
// factories wrap Fastify's own two (same pools, same options, same generated code), so
// validation and serialization are unchanged; only the moment of compiling moves.
//
// A schema that cannot compile would now fail on its route's first request instead of at
// start: `compileAllSchemas(app)` compiles everything pending, and a test runs it on the
// whole app (test/http/route-schemas.test.ts), so such a schema never ships.
import AjvCompiler from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

type Factories = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type BuildValidator = NonNullable<Factories['buildValidator']>;
type BuildSerializer = NonNullable<Factories['buildSerializer']>;

/**
 * What Fastify reads of a validator: its answer, then `.errors` when it answered false; and
 * `schemaEnv` (an ajv validator's), which tells it to pass the request as the parent so that
 * ajv can coerce a root value (a query string's single value into the array the schema wants).
 */
interface Validator {
  (data: unknown, context?: unknown): unknown;
  errors?: unknown;
  schemaEnv?: unknown;
}

/** The app's ajv options with type coercion off (request bodies). */
function withoutCoercion(ajvOptions: unknown): unknown {
  const options = (ajvOptions ?? {}) as { customOptions?: Record<string, unknown> };
  return { ...options, customOptions: { ...options.customOptions, coerceTypes: false } };
}

const pendingByApp = new WeakMap<FastifyInstance, Set<() => unknown>>();

/** One app's compiler factories (Fastify's `schemaController.compilersFactory` option). */
export function lazyCompilers(): { compilersFactory: Factories; bind(app: FastifyInstance): void } {
  const pending = new Set<() => unknown>();
  const validators = AjvCompiler();
  const serializers = SerializerSelector();

  /** `compile` once, on the first call of the answered function, or by compileAllSchemas. */
  function once<F>(compile: () => F): () => F {
    let compiled: F | undefined;
    const get = (): F => {
      if (compiled === undefined) {
        compiled = compile();
        pending.delete(get);
      }
      return compiled;
    };
    pending.add(get);
    return get;
  }

  const buildValidator = ((externalSchemas: unknown, ajvOptions: unknown) => {
    const build = validators as unknown as (s: unknown, o: unknown) => (route: unknown) => Validator;
    const compilerFor = build(externalSchemas, ajvOptions);
    // Bodies are typed JSON: a number where a string is wanted is the caller's mistake and
    // answers 400 naming the field (as the vendor's JSON reader does), never a silent "42".
    // Path, query and headers are text by nature and keep the app's coercion.
    const bodyCompilerFor = build(externalSchemas, withoutCoercion(ajvOptions));
    return (route: unknown): Validator => {
      const forPart = (route as { httpPart?: string }).httpPart === 'body' ? bodyCompilerFor : compilerFor;
      const compiled = once(() => forPart(route));
      const validate: Validator = (data, context) => {
        const fn = compiled();
        const ok = fn(data, context);
        validate.errors = fn.errors;
        return ok;
      };
      // Read on every validation: answer the compiled validator's own, then keep it as a value.
      Object.defineProperty(validate, 'schemaEnv', {
        configurable: true,
        get: () => {
          const schemaEnv = compiled().schemaEnv;
          Object.defineProperty(validate, 'schemaEnv', { value: schemaEnv });
          return schemaEnv;
        },
      });
      return validate;
    };
  }) as unknown as BuildValidator;

  const buildSerializer = ((externalSchemas: unknown, serializerOptions: unknown) => {
    const compilerFor = (serializers as unknown as (s: unknown, o: unknown) => (route: unknown) => (data: unknown) => string)(
      externalSchemas,
      serializerOptions,
    );
    return (route: unknown) => {
      const compiled = once(() => compilerFor(route));
      return (data: unknown) => compiled()(data);
    };
  }) as unknown as BuildSerializer;

  return {
    compilersFactory: { buildValidator, buildSerializer },
    bind: (app) => void pendingByApp.set(app, pending),
  };
}

/** Compiles every route schema not compiled yet; throws the first schema that cannot compile. */
export function compileAllSchemas(app: FastifyInstance): number {
  const pending = pendingByApp.get(app);
  if (!pending) return 0;
  const all = [...pending];
  for (const compile of all) compile();
  return all.length;
}
