// @engine-independent: no database.
// The three error surfaces as one typed exception: status, errorCode, errorValues.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorFromBody, parseRetryAfter, ScanbaseError } from '../src/index.ts';

const ctx = { method: 'GET', url: 'http://x/api' };

test('errors: an RFC 9457 problem gives its errorCode and its extra members as errorValues', () => {
  const e = errorFromBody(404, { type: 'about:blank', status: 404, title: 'Not Found', detail: 'No such project', errorCode: 'project-not-found', projectId: 'urn:x:project:1' }, { ...ctx, contentType: 'application/problem+json' });
  assert.ok(e instanceof ScanbaseError && e instanceof Error);
  assert.equal(e.surface, 'problem');
  assert.equal(e.status, 404);
  assert.equal(e.errorCode, 'project-not-found');
  assert.equal(e.message, 'No such project');
  assert.deepEqual(e.errorValues, { projectId: 'urn:x:project:1' });
});

test('errors: a body with an errorValues member (the service\'s shape) gives that object', () => {
  const e = errorFromBody(400, { type: 'about:blank', status: 400, title: 'Bad Request', detail: 'Invalid x', errorCode: 'invalid-input', errorValues: { field: 'body.x', reason: 'bad' } }, ctx);
  assert.deepEqual(e.errorValues, { field: 'body.x', reason: 'bad' });
});

test('errors: an API 1 {code, message} body', () => {
  const e = errorFromBody(400, { code: 'too-many-tags', message: 'Too many tags', tagListId: 7, limit: 50000 }, ctx);
  assert.equal(e.surface, 'api1');
  assert.equal(e.errorCode, 'too-many-tags');
  assert.deepEqual(e.errorValues, { tagListId: 7, limit: 50000 });
});

test('errors: a token endpoint {error, error_description} body', () => {
  const e = errorFromBody(401, { error: 'invalid_grant', error_description: 'The refresh token is expired, used or unknown', errorCode: 'unauthorized' }, ctx);
  assert.equal(e.surface, 'oauth');
  assert.equal(e.errorCode, 'invalid_grant');
  assert.equal(e.message, 'The refresh token is expired, used or unknown');
});

test('errors: a body of none of them (a proxy page) keeps the status and the text', () => {
  const e = errorFromBody(502, '<html>Bad gateway</html>', { ...ctx, retryAfter: '7' });
  assert.equal(e.surface, 'http');
  assert.equal(e.errorCode, 'http-502');
  assert.equal(e.retryAfterSeconds, 7);
});

test('Retry-After: seconds or an HTTP date; nonsense is ignored', () => {
  assert.equal(parseRetryAfter('120'), 120);
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now), 30);
  assert.equal(parseRetryAfter('soon'), undefined);
  assert.equal(parseRetryAfter(null), undefined);
});
