// Where two answers to the same request differ (docs/sandbox.md "What the diff reports"):
// status, error code, body kind, and for JSON the shape: members missing from the replay's
// answer, members only it has, and values of another type, each with its JSON path. Values
// themselves are not compared (ids, dates and names differ between services by nature); the
// items of an array are compared as one merged shape (`[*]`), so order and count do not
// matter but what an item may hold does.
import type { RecordedBody } from './session.ts';

export type Difference =
  | { kind: 'status'; recorded: number | null; replayed: number | null }
  | { kind: 'error-code'; recorded: string | null; replayed: string | null }
  | { kind: 'body'; recorded: string; replayed: string }
  | { kind: 'missing'; path: string; recorded: string }
  | { kind: 'extra'; path: string; replayed: string }
  | { kind: 'type'; path: string; recorded: string; replayed: string };

const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** The error code of an answer in any of the surfaces' formats: API 2 problem+json, API 1, OAuth (RFC 6749). */
export function errorCodeOf(status: number, body: RecordedBody): string | null {
  if (status < 400 || body.kind !== 'json' || !body.json || typeof body.json !== 'object') return null;
  const o = body.json as Record<string, unknown>;
  for (const k of ['errorCode', 'code', 'error']) if (typeof o[k] === 'string') return o[k] as string;
  return null;
}

/** A value's shape: its type, and for objects and arrays what they hold. */
interface Shape {
  types: Set<string>;
  members?: Map<string, Shape>;
  items?: Shape;
}

function shapeOf(v: unknown, into: Shape = { types: new Set() }): Shape {
  into.types.add(typeOf(v));
  if (Array.isArray(v)) {
    into.items ??= { types: new Set() };
    for (const x of v) shapeOf(x, into.items);
  } else if (v && typeof v === 'object') {
    into.members ??= new Map();
    for (const [k, x] of Object.entries(v)) {
      if (!into.members.has(k)) into.members.set(k, { types: new Set() });
      shapeOf(x, into.members.get(k));
    }
  }
  return into;
}

const typesText = (s: Shape) => [...s.types].sort().join('|');
const memberPath = (base: string, key: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`);

function compareShapes(a: Shape, b: Shape, path: string, out: Difference[]): void {
  if (typesText(a) !== typesText(b)) out.push({ kind: 'type', path, recorded: typesText(a), replayed: typesText(b) });
  if (a.members && b.members) {
    for (const [k, s] of a.members) {
      const other = b.members.get(k);
      if (!other) out.push({ kind: 'missing', path: memberPath(path, k), recorded: typesText(s) });
      else compareShapes(s, other, memberPath(path, k), out);
    }
    for (const [k, s] of b.members) if (!a.members.has(k)) out.push({ kind: 'extra', path: memberPath(path, k), replayed: typesText(s) });
  }
  // An empty array on either side says nothing of its items.
  if (a.items && b.items && a.items.types.size && b.items.types.size) compareShapes(a.items, b.items, `${path}[*]`, out);
}

export function compareAnswers(
  recorded: { status: number; body: RecordedBody } | null,
  replayed: { status: number; body: RecordedBody } | null,
): Difference[] {
  const out: Difference[] = [];
  if (!recorded || !replayed || recorded.status !== replayed.status) {
    out.push({ kind: 'status', recorded: recorded?.status ?? null, replayed: replayed?.status ?? null });
    if (!recorded || !replayed) return out;
  }
  const codes = [errorCodeOf(recorded.status, recorded.body), errorCodeOf(replayed.status, replayed.body)] as const;
  if (codes[0] !== codes[1]) out.push({ kind: 'error-code', recorded: codes[0], replayed: codes[1] });
  const a = recorded.body;
  const b = replayed.body;
  if (a.kind !== b.kind) {
    out.push({ kind: 'body', recorded: a.kind, replayed: b.kind });
    return out;
  }
  if (a.kind === 'json' && b.kind === 'json') compareShapes(shapeOf(a.json), shapeOf(b.json), '$', out);
  else if (a.kind === 'form' && b.kind === 'form') compareShapes(shapeOf(a.form), shapeOf(b.form), '$', out);
  else if (a.kind === 'binary' && b.kind === 'binary' && a.sha256 !== b.sha256) {
    out.push({ kind: 'body', recorded: `${a.bytes} bytes, sha256 ${a.sha256}`, replayed: `${b.bytes} bytes, sha256 ${b.sha256}` });
  }
  return out;
}
