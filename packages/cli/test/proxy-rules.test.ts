// The recording proxy's pure rules (docs/sandbox.md "The recording proxy"): redaction
// (redact.ts), the comparison of two answers (compare.ts) and the replay's id map (replay.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor } from '../src/proxy/redact.ts';
import { compareAnswers } from '../src/proxy/compare.ts';
import { IdMap } from '../src/proxy/replay.ts';

const jwt = `eyJhbGciOiJFUzI1NiJ9.${Buffer.from(JSON.stringify({ sub: 'u-1' })).toString('base64url')}.c2lnbmF0dXJlLXNpZ25hdHVyZQ`;

test('the same value is always replaced by the same placeholder, another value by another, across kinds of places', () => {
  const r = new Redactor();
  const a = r.headers({ authorization: `Bearer ${jwt}` }).authorization;
  const body = r.json({ access_token: jwt, refresh_token: 'opaque-refresh-value', user: { email: 'Ann@Example.com', name: 'Ann Smith' } }) as any;
  assert.equal(a, 'Bearer redacted-token-1');
  assert.equal(body.access_token, 'redacted-token-1');
  assert.equal(body.refresh_token, 'redacted-token-2');
  assert.equal(body.user.email, 'person-1@redacted.invalid');
  assert.equal(body.user.name, 'Redacted Name 1', 'a name beside an e-mail is a person\'s');
  assert.equal(r.text(`mail Ann@Example.com again, token ${jwt}`), 'mail person-1@redacted.invalid again, token redacted-token-1');
  assert.equal(r.url('/api/2/users/Ann%40Example.com?email=Ann@Example.com'), '/api/2/users/person-1@redacted.invalid?email=person-1%40redacted.invalid');
  assert.deepEqual([...r.keys], [['person-1@redacted.invalid', 'Ann@Example.com'], ['Redacted Name 1', 'Ann Smith']], 'only personal data is kept for the key file');
});

test('signatures of signed URLs, passwords, cookies and company names are redacted; ids and other values are not', () => {
  const r = new Redactor();
  const url = 'http://127.0.0.1:1/_blobs/p/b.e57?expires=99&size=3&sig=AbC123secret';
  const out = r.json({
    id: 'urn:svc:project:7b0f3d5e-1c2a-4b8e-9f00-000000000001', name: 'Plant', url, company: 'Acme Ltd', password: 'hunter2-hunter2',
    s3: 'https://bucket.s3/k?X-Amz-Credential=AKIA/x&X-Amz-Signature=deadbeef&X-Amz-Date=1',
  }) as any;
  assert.equal(out.id, 'urn:svc:project:7b0f3d5e-1c2a-4b8e-9f00-000000000001');
  assert.equal(out.name, 'Plant', 'a name that is not beside an e-mail is not a person\'s');
  assert.equal(out.url, 'http://127.0.0.1:1/_blobs/p/b.e57?expires=99&size=3&sig=redacted-signature-1');
  assert.equal(out.company, 'Redacted Company 1');
  assert.equal(out.password, 'redacted-password-1');
  assert.match(out.s3, /X-Amz-Credential=redacted-token-\d+&X-Amz-Signature=redacted-signature-2&X-Amz-Date=1$/);
  assert.deepEqual(r.headers({ cookie: 'sb_session=s3cr3t; theme=dark', 'set-cookie': ['sb_session=s3cr3t; Path=/; HttpOnly'] }), {
    cookie: 'sb_session=redacted-cookie-1; theme=redacted-cookie-2',
    'set-cookie': ['sb_session=redacted-cookie-1; Path=/; HttpOnly'],
  });
});

test('two answers differ by status, error code, missing and extra members and types, each with its JSON path; values and order do not count', () => {
  const rec = { status: 200, body: { kind: 'json' as const, json: { id: 'a', n: 1, tags: [{ x: 1 }, { x: 2, y: 'p' }], gone: true } } };
  const same = { status: 200, body: { kind: 'json' as const, json: { id: 'b', n: 9, tags: [{ x: 5, y: 'q' }], gone: false } } };
  assert.deepEqual(compareAnswers(rec, same), [], 'other values, another item order and count: alike');
  const other = { status: 200, body: { kind: 'json' as const, json: { id: 'b', n: '1', tags: [{ x: 1, z: null }], added: 1 } } };
  assert.deepEqual(compareAnswers(rec, other), [
    { kind: 'type', path: '$.n', recorded: 'number', replayed: 'string' },
    { kind: 'missing', path: '$.tags[*].y', recorded: 'string' },
    { kind: 'extra', path: '$.tags[*].z', replayed: 'null' },
    { kind: 'missing', path: '$.gone', recorded: 'boolean' },
    { kind: 'extra', path: '$.added', replayed: 'number' },
  ]);
  const refused = { status: 404, body: { kind: 'json' as const, json: { status: 404, errorCode: 'project-not-found' } } };
  const otherCode = { status: 403, body: { kind: 'json' as const, json: { status: 403, errorCode: 'view-project-forbidden' } } };
  assert.deepEqual(compareAnswers(refused, otherCode), [
    { kind: 'status', recorded: 404, replayed: 403 },
    { kind: 'error-code', recorded: 'project-not-found', replayed: 'view-project-forbidden' },
  ]);
  assert.deepEqual(compareAnswers({ status: 200, body: { kind: 'binary', bytes: 3, sha256: 'a' } }, { status: 200, body: { kind: 'binary', bytes: 3, sha256: 'b' } }), [
    { kind: 'body', recorded: '3 bytes, sha256 a', replayed: '3 bytes, sha256 b' },
  ]);
});

test('the replay maps an id where both answers hold one at the same place, a URN\'s UUID with it, the first mapping standing', () => {
  const ids = new IdMap();
  ids.learn(
    { id: 'urn:svc:project:11111111-1111-4111-8111-111111111111', name: 'A', files: [{ url: 'http://proxy/_blobs/k?sig=redacted-signature-1', size: 3 }] },
    { id: 'urn:svc:project:22222222-2222-4222-8222-222222222222', name: 'B', files: [{ url: 'http://other/_blobs/k2?sig=real', size: 3 }] },
  );
  assert.equal(ids.pairs.has('A'), false, 'a name is not an id');
  assert.equal(ids.apply('http://proxy/_blobs/k?sig=redacted-signature-1'), 'http://other/_blobs/k2?sig=real');
  assert.equal(
    ids.path('/api/2/accounts/x/projects/urn:svc:project:11111111-1111-4111-8111-111111111111/files?of=11111111-1111-4111-8111-111111111111'),
    '/api/2/accounts/x/projects/urn:svc:project:22222222-2222-4222-8222-222222222222/files?of=22222222-2222-4222-8222-222222222222',
  );
  ids.learn({ id: 'urn:svc:project:11111111-1111-4111-8111-111111111111' }, { id: 'urn:svc:project:33333333-3333-4333-8333-333333333333' });
  assert.equal(ids.apply('urn:svc:project:11111111-1111-4111-8111-111111111111'), 'urn:svc:project:22222222-2222-4222-8222-222222222222');
});
