// The pure upload rules (src/modules/files/core/upload-items.ts): what an upload item and a cover
// must be, how a registration must match what was signed, and the pending row it leaves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DomainError } from '../../src/core/errors.ts';
import { checkCover, checkItem, matchesPending, pendingUploadRecord } from '../../src/modules/files/core/upload-items.ts';

const MD5 = '0123456789ABCDEF0123456789abcdef';
const NOW = new Date('2026-03-01T12:00:00Z');

const refusal = (code: string, field?: string) => (e: unknown) => {
  assert.ok(e instanceof DomainError, String(e));
  assert.equal(e.code, code);
  if (field) assert.equal(e.values?.field, field);
  return true;
};

test('an upload item is normalised: trimmed name, extension without dot in lower case, lower-case MD5, its format and category', () => {
  const c = checkItem({ name: '  scan one ', extension: '.E57', size: 10, md5: MD5 }, 0);
  assert.deepEqual([c.name, c.extension, c.md5, c.category], ['scan one', 'e57', MD5.toLowerCase(), 'scan']);
});

test('an upload item is refused naming its index and field: forbidden name characters, bad extension, size beyond 5 TiB, malformed MD5', () => {
  assert.throws(() => checkItem({ name: 'a/b', extension: 'e57', size: 1, md5: MD5 }, 3), refusal('invalid-input', '/3/name'));
  assert.throws(() => checkItem({ name: 'a', extension: 'e-57', size: 1, md5: MD5 }, 1), refusal('invalid-input', '/1/extension'));
  assert.throws(() => checkItem({ name: 'a', extension: 'e57', size: 5 * 1024 ** 4 + 1, md5: MD5 }, 0), refusal('invalid-input', '/0/size'));
  assert.throws(() => checkItem({ name: 'a', extension: 'e57', size: 1, md5: 'xyz' }, 0), refusal('invalid-input', '/0/md5'));
});

test('a cover is a png, jpg or jpeg of 1 byte to 10 MiB', () => {
  assert.equal(checkCover({ name: 'c', extension: 'JPG', size: 10 * 1024 * 1024, md5: MD5 }).extension, 'jpg');
  assert.throws(() => checkCover({ name: 'c', extension: 'gif', size: 10, md5: MD5 }), refusal('invalid-input', 'extension'));
  assert.throws(() => checkCover({ name: 'c', extension: 'png', size: 0, md5: MD5 }), refusal('invalid-input', 'size'));
  assert.throws(() => checkCover({ name: 'c', extension: 'png', size: 10 * 1024 * 1024 + 1, md5: MD5 }), refusal('invalid-input', 'size'));
});

test('a registration matches its pending upload: before it expires, with the signed extension, size and MD5', () => {
  const pending = pendingUploadRecord(
    'id', { name: 'n', extension: 'e57', size: 5, md5: MD5.toLowerCase(), blobName: 'b.e57' },
    { projectId: 'p', workzoneId: 'w', cropId: null, kind: 'file', category: 'scan' }, 'u', NOW, 60,
  );
  assert.equal(pending.expiresAt.getTime(), NOW.getTime() + 60_000, 'the row lives ttlSeconds');
  const item = { name: 'n', extension: '.E57', size: 5, md5: MD5 };
  assert.doesNotThrow(() => matchesPending(pending, item, new Date(NOW.getTime() + 59_999)));
  assert.throws(() => matchesPending(pending, item, new Date(NOW.getTime() + 60_000)), refusal('upload-expired'));
  assert.throws(() => matchesPending(pending, { ...item, size: 6 }, NOW), refusal('invalid-input'));
  assert.throws(() => matchesPending(pending, { ...item, extension: 'las' }, NOW), refusal('invalid-input'));
});
