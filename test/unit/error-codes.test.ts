// The error-code catalogue (src/core/error-codes.ts) against what defines the codes: the
// spec's "Errors" table, CONTRACT.md and the vendor's OpenAPI document (../shared/…, as
// the vendor-schema tests read them; skipped when absent), and against the code: every
// catalogued code is one the service can answer, and the OpenAPI descriptions show each
// code with its catalogued status.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorCode, ErrorCodeEntry } from '../../src/core/error-codes.ts';
// The assembled catalogue: the kernel's codes and those of the modules under src/modules.
import { ERROR_CATALOGUE as ERROR_CODES, operationTable } from '../../src/modules/registries.ts';
import { statusOfKind } from '../../src/core/errors.ts';
import { URN_TYPES } from '../../src/core/ids/urn.ts';
import { describeError } from '../../src/http/openapi.ts';
import { API2_OPERATIONS } from '../../src/http/api2/operation-docs.ts';
import { API1_OPERATIONS } from '../../src/http/api1/operation-docs.ts';
import { VENDOR_OPENAPI } from '../support/vendor-schema.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SPEC = path.resolve(ROOT, '../shared/spec/service-spec.md');
const CONTRACT = path.resolve(ROOT, '../shared/CONTRACT.md');
const entries = Object.entries(ERROR_CODES) as [ErrorCode, ErrorCodeEntry][];
const missing = (file: string) => (fs.existsSync(file) ? false : `${file} is not there`);

/** The spec's "Errors" table: each row's status and its code patterns (`<x>` and `*` stand for a word). */
function specRows(): { status: number; pattern: RegExp; literal: string | null }[] {
  const text = fs.readFileSync(SPEC, 'utf8');
  const section = text.slice(text.indexOf('\n## Errors'));
  const rows: { status: number; pattern: RegExp; literal: string | null }[] = [];
  for (const line of section.split('\n')) {
    const m = /^\| (\d{3}) \| (.+?) \|/.exec(line);
    if (!m) continue;
    for (const [, code] of m[2]!.matchAll(/`([^`]+)`/g)) {
      const literal = /[<*]/.test(code!) ? null : code!;
      const source = code!.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/<[a-z]+>|\*/g, '[a-z0-9]+(?:-[a-z0-9]+)*');
      rows.push({ status: Number(m[1]), pattern: new RegExp(`^${source}$`), literal });
    }
  }
  return rows;
}

/** The vendor document's errorCode values (fields, and codes its descriptions name with a status), each with the statuses it is given under (none: only in an example). */
function vendorCodes(): Map<string, Set<number>> {
  const found = new Map<string, Set<number>>();
  const add = (code: string, status: number | null) => {
    const set = found.get(code) ?? new Set<number>();
    if (status) set.add(status);
    found.set(code, set);
  };
  const walk = (node: unknown, status: number | null): void => {
    if (typeof node === 'string') {
      for (const m of node.matchAll(/"errorCode\\?"\s*:\s*\\?"([a-z0-9_-]+)/g)) add(m[1]!, status);
      // An operation's prose naming the code: "an error 400 with error code `project-max-annotations`" (createAnnotation).
      for (const m of node.matchAll(/error (\d{3}) with\s+error code `([a-z0-9_-]+)`/g)) add(m[2]!, Number(m[1]));
    } else if (Array.isArray(node)) {
      for (const n of node) walk(n, status);
    } else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        const here = /^[1-5]\d\d$/.test(k) ? Number(k) : status;
        if (k === 'errorCode' && typeof v === 'string') add(v, here);
        else if (k === 'errorCode' && v && typeof v === 'object') {
          for (const key of ['example', 'enum', 'const', 'default']) {
            const value = (v as Record<string, unknown>)[key];
            for (const c of Array.isArray(value) ? value : value === undefined ? [] : [value]) add(String(c), here);
          }
        }
        walk(v, here);
      }
    }
  };
  walk(JSON.parse(fs.readFileSync(VENDOR_OPENAPI, 'utf8')), null);
  return found;
}

test('every code marked spec falls under a row of the spec\'s Errors table with its status', { skip: missing(SPEC) }, () => {
  const rows = specRows();
  assert.ok(rows.length >= 10, `only ${rows.length} codes read from the spec's table`);
  for (const [code, e] of entries) {
    const row = rows.find((r) => r.pattern.test(code));
    if (e.defined.includes('spec')) {
      assert.ok(row, `${code} is marked spec but matches no row of the spec's table`);
      assert.ok(rows.some((r) => r.pattern.test(code) && r.status === e.status[0]), `${code}: the spec gives it another status than ${e.status[0]}`);
    }
  }
});

test('every code the spec\'s Errors table names literally is in the catalogue, marked spec, with its status', { skip: missing(SPEC) }, () => {
  for (const r of specRows()) {
    if (!r.literal) continue;
    const e = (ERROR_CODES as Record<string, ErrorCodeEntry>)[r.literal];
    assert.ok(e, `${r.literal} (spec) is not in the catalogue`);
    assert.ok(e.defined.includes('spec'), `${r.literal} is named by the spec but not marked spec`);
    assert.ok(e.status.includes(r.status), `${r.literal}: the spec answers ${r.status}`);
  }
});

/** Codes the vendor's document names that this service never answers, and why. */
const VENDOR_ONLY: Record<string, string> = {
  'deleted-workzone': 'an example of deleted-<type>: a deleted work zone is gone at once (only projects stay deleted)',
};

test('every code the vendor\'s document names is in the catalogue, marked vendor, with the vendor\'s status', { skip: missing(VENDOR_OPENAPI) }, () => {
  const vendor = vendorCodes();
  assert.ok(vendor.size >= 10, `only ${vendor.size} codes read from the vendor document`);
  for (const [code, statuses] of vendor) {
    if (VENDOR_ONLY[code]) {
      assert.ok(!(code in ERROR_CODES), `${code} is answered after all: catalogue it`);
      continue;
    }
    const e = (ERROR_CODES as Record<string, ErrorCodeEntry>)[code];
    assert.ok(e, `${code} (vendor) is not in the catalogue`);
    assert.ok(e.defined.includes('vendor'), `${code} is named by the vendor but not marked vendor`);
    for (const s of statuses) assert.ok(e.status.includes(s), `${code}: the vendor answers ${s}`);
  }
  for (const [code, e] of entries) {
    if (e.defined.includes('vendor')) assert.ok(vendor.has(code), `${code} is marked vendor but the vendor's document does not name it`);
    if (e.defined.includes('ours')) assert.ok(!vendor.has(code), `${code} is marked ours but the vendor names it`);
  }
});

test('every code CONTRACT.md names with a status is in the catalogue, and every code marked contract is in CONTRACT.md', { skip: missing(CONTRACT) }, () => {
  const text = fs.readFileSync(CONTRACT, 'utf8');
  const pairs = [...text.matchAll(/\b([45]\d\d) `([a-z][a-z0-9_-]*)`/g)];
  assert.ok(pairs.length >= 3);
  for (const [, status, code] of pairs) {
    const e = (ERROR_CODES as Record<string, ErrorCodeEntry>)[code!];
    assert.ok(e, `${code} (CONTRACT) is not in the catalogue`);
    assert.ok(e.defined.includes('contract'), `${code} is named by CONTRACT.md but not marked contract`);
    assert.ok(e.status.includes(Number(status)), `${code}: CONTRACT.md answers ${status}`);
  }
  for (const [code, e] of entries) {
    if (e.defined.includes('contract')) assert.ok(text.includes(`\`${code}\``), `${code} is marked contract but CONTRACT.md does not name it`);
  }
});

test('every catalogued code is one the source answers', () => {
  const files = fs.globSync('src/**/*.ts', { cwd: ROOT }).filter((f) => !/error-codes\.ts$|operation-docs\.ts$|\.test\.ts$|modules\/[^/]+\/core\/errors\.ts$|modules\/[^/]+\/http\/operations\.ts$/.test(f));
  const source = files.map((f) => fs.readFileSync(path.join(ROOT, f), 'utf8')).join('\n');
  const urnTypes = new Set<string>(URN_TYPES);
  for (const [code] of entries) {
    const notFoundType = /^(.+)-not-found$/.exec(code)?.[1];
    const urnType = /^invalid-(.+)-urn$/.exec(code)?.[1];
    const used =
      source.includes(`'${code}'`) ||
      (notFoundType !== undefined && source.includes(`notFound('${notFoundType}'`)) ||
      (urnType !== undefined && urnTypes.has(urnType));
    assert.ok(used, `${code} is catalogued but nothing answers it`);
  }
  for (const t of URN_TYPES) assert.ok(`invalid-${t}-urn` in ERROR_CODES, `invalid-${t}-urn`);
});

test('a code thrown as a DomainError has a status some error kind answers', () => {
  const kindStatuses = new Set<number>(Object.values(statusOfKind));
  for (const [code, e] of entries) {
    assert.ok(e.status.length > 0 && e.status.every((s) => s >= 400 && s < 600), code);
    assert.ok(e.defined.length > 0, code);
    // Codes only the HTTP layer answers (framework refusals) may have statuses no kind has.
    // injected-fault: a sandbox fault rule's status, rendered by the module's request hook (src/modules/sandbox/http/hooks.ts).
    if (!['request-timeout', 'range-not-satisfiable', 'unsupported-media-type', 'internal-error', 'invalid-input', 'injected-fault'].includes(code)) {
      assert.ok(e.status.every((s) => kindStatuses.has(s)), `${code}: ${e.status.join(', ')}`);
    }
  }
});

test('the OpenAPI descriptions show each code with its catalogued status', () => {
  assert.equal(describeError('view-account-forbidden'), '403 view-account-forbidden');
  assert.equal(describeError({ code: 'tag-list-pending', when: 'an AI detection runs' }), '409 tag-list-pending (an AI detection runs)');
  let n = 0;
  // The assembled tables: the kernel's and the modules' contracts' (src/modules/registries.ts).
  for (const table of [operationTable('api2', API2_OPERATIONS), operationTable('api1', API1_OPERATIONS)]) {
    for (const op of Object.values(table)) {
      for (const e of op.errors) {
        const code = typeof e === 'string' ? e : e.code;
        assert.ok(code in ERROR_CODES, code);
        n++;
      }
    }
  }
  assert.ok(n > 100, `only ${n} errors described`);
});
