// No server: the CSV shape of tags survives a round trip whatever the cells hold, bad
// cells are refused with their line and column, and each failure kind has its exit code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScanbaseError } from '@scanbase/sdk';
import { csvToTagData, tagsToCsv } from '../src/tags-csv.ts';
import { EXIT, UsageError, exitCodeOf } from '../src/exit-codes.ts';

test('tags CSV: data with commas, quotes, newlines, numeric-looking names, numbers, booleans and nested values comes back equal', () => {
  const data = [
    { id: 'a', name: 'x, "y"\nz', unit: 0, confidence: 0.25, needValidation: false, model: { type: 'box', list: [[1, 2], [3, 4]] }, metadata: [{ id: 'm', value: '' }] },
    { id: 'b', name: '42', description: 'true', nature: 'manual' as const, zExtra: 'kept as a string' },
    { id: 'c' },
  ];
  const csv = tagsToCsv(data.map((d, i) => ({ id: `urn:svc:tag:${i}`, data: d })));
  assert.match(csv.split('\n')[0]!, /^tagId,data\.id,data\.name,data\.nature,data\.description,data\.unit,data\.confidence,data\.needValidation,data\.model,data\.metadata,data\.zExtra$/);
  assert.deepEqual(csvToTagData(csv), data);
  assert.deepEqual(csvToTagData(`\ufeff${csv}`), data, 'a byte-order mark is skipped');
});

test('tags CSV: a bad cell is refused with its line and column', () => {
  assert.throws(() => csvToTagData('data.id,data.unit\na,two\n'), /line 2, data\.unit: not a number: two/);
  assert.throws(() => csvToTagData('data.id,data.needValidation\na,yes\n'), /line 2, data\.needValidation: expected true or false/);
  assert.throws(() => csvToTagData('data.id,data.boundingBox\na,"[1,2"\n'), /line 2, data\.boundingBox: not JSON/);
  assert.throws(() => csvToTagData('id,name\na,b\n'), /unknown column id/);
});

const refusal = (status: number, errorCode = 'x') => new ScanbaseError({ status, errorCode, message: 'm', surface: 'problem', method: 'GET', url: 'http://x' });

test('exit codes by failure kind', () => {
  assert.equal(exitCodeOf(new UsageError('u')), EXIT.usage);
  assert.equal(exitCodeOf(refusal(401)), EXIT.auth);
  assert.equal(exitCodeOf(refusal(400, 'invalid_grant')), EXIT.auth);
  assert.equal(exitCodeOf(refusal(403)), EXIT.forbidden);
  assert.equal(exitCodeOf(refusal(404)), EXIT.notFound);
  assert.equal(exitCodeOf(refusal(410)), EXIT.notFound);
  for (const s of [400, 409, 412, 413, 422]) assert.equal(exitCodeOf(refusal(s)), EXIT.refused, String(s));
  for (const s of [429, 500, 503]) assert.equal(exitCodeOf(refusal(s)), EXIT.unavailable, String(s));
  assert.equal(exitCodeOf(refusal(0, 'connection-failed')), EXIT.network);
  assert.equal(exitCodeOf(new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) })), EXIT.network);
  assert.equal(exitCodeOf(refusal(0, 'md5-mismatch')), EXIT.failure);
  assert.equal(exitCodeOf(new Error('EACCES')), EXIT.failure);
});
