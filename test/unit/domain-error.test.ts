// DomainError (src/core/errors.ts): the kind decides the HTTP status; the helpers
// build the spec's codes (invalid-input, unauthorized, <type>-not-found).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DomainError, invalidInput, notFound, statusOfKind, unauthorized, type ErrorKind } from '../../src/core/errors.ts';

test('each error kind answers its HTTP status', () => {
  const expected: Record<ErrorKind, number> = {
    invalid: 400,
    unauthorized: 401,
    forbidden: 403,
    'not-found': 404,
    conflict: 409,
    'too-large': 413,
    'too-many': 429,
    unavailable: 503,
  };
  assert.deepEqual({ ...statusOfKind }, expected);
  assert.equal(new DomainError('forbidden', 'view-account-forbidden', 'm').status, 403);
  assert.equal(new DomainError('conflict', 'role-not-found', 'm').status, 409);
});

test('a DomainError keeps its code, message, values and headers', () => {
  const e = new DomainError('too-many', 'too-many-requests', 'Slow down', { retryAfter: 30 }, { 'retry-after': '30' });
  assert.ok(e instanceof Error);
  assert.equal(e.name, 'DomainError');
  assert.equal(e.code, 'too-many-requests');
  assert.equal(e.message, 'Slow down');
  assert.deepEqual(e.values, { retryAfter: 30 });
  assert.deepEqual(e.headers, { 'retry-after': '30' });
});

test('invalidInput answers 400 invalid-input with its values', () => {
  const e = invalidInput('name is too long', { field: 'name' });
  assert.equal(e.status, 400);
  assert.equal(e.code, 'invalid-input');
  assert.deepEqual(e.values, { field: 'name' });
});

test('unauthorized answers 401 unauthorized', () => {
  const e = unauthorized();
  assert.equal(e.status, 401);
  assert.equal(e.code, 'unauthorized');
  assert.equal(unauthorized('custom').message, 'custom');
});

test('notFound answers 404 <type>-not-found with the id keyed by the type', () => {
  const e = notFound('project', 'abc');
  assert.equal(e.status, 404);
  assert.equal(e.code, 'project-not-found');
  assert.deepEqual(e.values, { projectId: 'abc' });
  assert.deepEqual(notFound('tag-list', 'x').values, { tagListId: 'x' });
  assert.equal(notFound('tag-list', 'x').code, 'tag-list-not-found');
});
