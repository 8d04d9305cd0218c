import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DomainError } from '../errors.ts';
import { URN_TYPES, formatUrn, parseApi1Ref, parseApi2Ref, uuidOfUrn } from './urn.ts';

const UUID = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

test('formats and parses a URN of every type in CONTRACT §2', () => {
  for (const type of URN_TYPES) {
    const urn = formatUrn('svc', type, UUID);
    assert.equal(urn, `urn:svc:${type}:${UUID}`);
    assert.deepEqual(parseApi2Ref('svc', type, urn), { type, uuid: UUID });
    assert.equal(uuidOfUrn('svc', type, urn), UUID);
  }
});

test('an API 2 reference may be a raw UUID (normalised to lower case) or an API 1 id', () => {
  assert.deepEqual(parseApi2Ref('svc', 'project', UUID.toUpperCase()), { type: 'project', uuid: UUID });
  assert.deepEqual(parseApi2Ref('svc', 'project', 'abc_DEF-123'), { type: 'project', api1Id: 'abc_DEF-123' });
});

test('answers 400 invalid-<type>-urn for a URN of the wrong type', () => {
  assert.throws(
    () => parseApi2Ref('svc', 'account', `urn:svc:project:${UUID}`),
    (e: unknown) => e instanceof DomainError && e.status === 400 && e.code === 'invalid-account-urn',
  );
});

test('answers 400 invalid-<type>-urn for malformed references', () => {
  for (const bad of [`urn:svc:tag-list:not-a-uuid`, `urn:other:tag-list:${UUID}`, 'urn:svc:tag-list', 'a'.repeat(51), 'has space', '']) {
    assert.throws(
      () => parseApi2Ref('svc', 'tag-list', bad),
      (e: unknown) => e instanceof DomainError && e.code === 'invalid-tag-list-urn',
      bad,
    );
  }
});

test('API 1 never accepts URNs', () => {
  assert.throws(() => parseApi1Ref('user', `urn:svc:user:${UUID}`), /Not a valid user reference/);
  assert.deepEqual(parseApi1Ref('user', UUID), { type: 'user', uuid: UUID });
});

test('the URN namespace is configurable', () => {
  assert.deepEqual(parseApi2Ref('acme', 'user', `urn:acme:user:${UUID}`), { type: 'user', uuid: UUID });
  assert.equal(uuidOfUrn('svc', 'user', `urn:acme:user:${UUID}`), null);
});
