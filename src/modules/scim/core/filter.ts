// SCIM filters (RFC 7644 §3.4.2.2), pure: parsed into a tree and evaluated against a resource
// as the SCIM surface presents it. Attribute names are case-insensitive; string comparisons
// are case-insensitive too except for `id`, `externalId` and `meta.*` (caseExact per RFC 7643).
// Operators: eq ne co sw ew pr gt ge lt le, and / or / not, parentheses, and value filters
// such as `emails[type eq "work"]`.
import { ScimError } from './scim-error.ts';

export type Filter =
  | { kind: 'compare'; path: string; op: CompareOp; value: unknown }
  | { kind: 'present'; path: string }
  | { kind: 'and' | 'or'; left: Filter; right: Filter }
  | { kind: 'not'; filter: Filter }
  | { kind: 'valuePath'; path: string; filter: Filter };

type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'ge' | 'lt' | 'le';
const COMPARE_OPS = new Set(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']);

/** Longest filter accepted (an IdP's filters are a few dozen characters). */
export const FILTER_MAX_CHARS = 1000;

const invalid = (detail: string) => new ScimError(400, detail, 'invalidFilter');

type Token = { t: 'word' | 'string' | '(' | ')' | '[' | ']'; v: string };

function tokenize(s: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (c === ' ' || c === '\t') { i++; continue; }
    if (c === '(' || c === ')' || c === '[' || c === ']') { out.push({ t: c, v: c }); i++; continue; }
    if (c === '"') {
      let j = i + 1;
      let v = '';
      while (j < s.length && s[j] !== '"') {
        if (s[j] === '\\' && j + 1 < s.length) { v += s[j + 1]; j += 2; continue; }
        v += s[j++];
      }
      if (j >= s.length) throw invalid('unterminated string in filter');
      out.push({ t: 'string', v });
      i = j + 1;
      continue;
    }
    let j = i;
    while (j < s.length && !' \t()[]"'.includes(s[j]!)) j++;
    out.push({ t: 'word', v: s.slice(i, j) });
    i = j;
  }
  return out;
}

/** Parses a filter; a filter the grammar refuses answers 400 invalidFilter. */
export function parseFilter(text: string): Filter {
  if (text.length > FILTER_MAX_CHARS) throw invalid(`filter longer than ${FILTER_MAX_CHARS} characters`);
  const tokens = tokenize(text);
  let pos = 0;
  const peek = () => tokens[pos];
  const word = (w: string) => peek()?.t === 'word' && peek()!.v.toLowerCase() === w;

  function orExpr(): Filter {
    let left = andExpr();
    while (word('or')) { pos++; left = { kind: 'or', left, right: andExpr() }; }
    return left;
  }
  function andExpr(): Filter {
    let left = unary();
    while (word('and')) { pos++; left = { kind: 'and', left, right: unary() }; }
    return left;
  }
  function unary(): Filter {
    if (word('not')) {
      pos++;
      if (peek()?.t !== '(') throw invalid('not must be followed by a parenthesised filter');
      return { kind: 'not', filter: unary() };
    }
    if (peek()?.t === '(') {
      pos++;
      const inner = orExpr();
      if (peek()?.t !== ')') throw invalid('missing )');
      pos++;
      return inner;
    }
    return attrExpr();
  }
  function attrExpr(): Filter {
    const p = peek();
    if (!p || p.t !== 'word') throw invalid('an attribute name was expected');
    pos++;
    const path = p.v;
    if (peek()?.t === '[') {
      pos++;
      const inner = orExpr();
      if (peek()?.t !== ']') throw invalid('missing ]');
      pos++;
      return { kind: 'valuePath', path, filter: inner };
    }
    const opTok = peek();
    if (!opTok || opTok.t !== 'word') throw invalid(`an operator was expected after ${path}`);
    const op = opTok.v.toLowerCase();
    pos++;
    if (op === 'pr') return { kind: 'present', path };
    if (!COMPARE_OPS.has(op)) throw invalid(`unknown operator ${opTok.v}`);
    const v = peek();
    if (!v || (v.t !== 'string' && v.t !== 'word')) throw invalid(`a value was expected after ${path} ${op}`);
    pos++;
    return { kind: 'compare', path, op: op as CompareOp, value: v.t === 'string' ? v.v : literal(v.v) };
  }

  const tree = orExpr();
  if (pos !== tokens.length) throw invalid(`unexpected ${tokens[pos]!.v} in filter`);
  return tree;
}

function literal(w: string): unknown {
  const lower = w.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (lower === 'null') return null;
  const n = Number(w);
  if (w !== '' && Number.isFinite(n)) return n;
  throw invalid(`unquoted value ${w}`);
}

/** The values at a dotted attribute path of a resource (case-insensitive names; arrays flattened). */
export function valuesAt(resource: unknown, path: string): unknown[] {
  // A schema-qualified path (urn:…:User:userName) names the attribute after the last colon.
  const bare = path.includes(':') ? path.slice(path.lastIndexOf(':') + 1) : path;
  let current: unknown[] = [resource];
  for (const part of bare.split('.')) {
    const next: unknown[] = [];
    for (const item of current.flatMap((c) => (Array.isArray(c) ? c : [c]))) {
      if (item === null || typeof item !== 'object') continue;
      const key = Object.keys(item).find((k) => k.toLowerCase() === part.toLowerCase());
      if (key !== undefined) next.push((item as Record<string, unknown>)[key]);
    }
    current = next;
  }
  return current.flatMap((c) => (Array.isArray(c) ? c : [c])).filter((v) => v !== undefined && v !== null);
}

const CASE_EXACT = /^(id|externalid|meta\..*|members\.value|value)$/i;

function compare(actual: unknown, op: CompareOp, expected: unknown, caseExact: boolean): boolean {
  if (typeof actual === 'string' && typeof expected === 'string') {
    const a = caseExact ? actual : actual.toLowerCase();
    const e = caseExact ? expected : expected.toLowerCase();
    switch (op) {
      case 'eq': return a === e;
      case 'ne': return a !== e;
      case 'co': return a.includes(e);
      case 'sw': return a.startsWith(e);
      case 'ew': return a.endsWith(e);
      case 'gt': return a > e;
      case 'ge': return a >= e;
      case 'lt': return a < e;
      case 'le': return a <= e;
    }
  }
  if (op === 'eq') return actual === expected;
  if (op === 'ne') return actual !== expected;
  if (typeof actual === 'number' && typeof expected === 'number') {
    if (op === 'gt') return actual > expected;
    if (op === 'ge') return actual >= expected;
    if (op === 'lt') return actual < expected;
    if (op === 'le') return actual <= expected;
  }
  return false;
}

/** Whether the resource matches the filter. */
export function matches(resource: unknown, f: Filter): boolean {
  switch (f.kind) {
    case 'and': return matches(resource, f.left) && matches(resource, f.right);
    case 'or': return matches(resource, f.left) || matches(resource, f.right);
    case 'not': return !matches(resource, f.filter);
    case 'present': return valuesAt(resource, f.path).some((v) => v !== '' && !(Array.isArray(v) && v.length === 0));
    case 'valuePath': {
      const items = valuesAt(resource, f.path);
      return items.some((item) => matches(item, f.filter));
    }
    case 'compare': {
      const values = valuesAt(resource, f.path);
      const caseExact = CASE_EXACT.test(f.path);
      if (f.op === 'ne') return values.length === 0 || values.every((v) => compare(v, 'ne', f.value, caseExact));
      return values.some((v) => compare(v, f.op, f.value, caseExact));
    }
  }
}
