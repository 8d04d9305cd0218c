// The kernel's secret box (src/core/crypto/secret-box.ts), shared by the sso module (IdP client
// secrets) and the integrations module (third-party tokens): AES-256-GCM under a key read once
// (first node wins), a sealed value opens to the plain text only under the same key, and any
// change to it is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createSecretBox, looksSealed } from '../../src/core/crypto/secret-box.ts';
import type { Ids } from '../../src/core/ports/ids.ts';

const ids = { secret: (n: number) => crypto.randomBytes(n).toString('base64url'), uuid: () => crypto.randomUUID() } as unknown as Ids;
/** A box over a kept key, as the settings keep it: the first candidate wins. */
function boxOver(kept: { key: string | null }, reads = { n: 0 }) {
  return createSecretBox({
    ids,
    sealingKey: async (candidate) => {
      reads.n++;
      kept.key ??= candidate;
      return kept.key;
    },
  });
}

test('a sealed value has the sealed form, opens to the plain text, and differs each time (fresh IV)', async () => {
  const reads = { n: 0 };
  const box = boxOver({ key: null }, reads);
  const a = await box.seal('konekt-token-1');
  const b = await box.seal('konekt-token-1');
  assert.ok(looksSealed(a) && looksSealed(b));
  assert.notEqual(a, b);
  assert.ok(!a.includes('konekt-token-1'));
  assert.equal(await box.open(a), 'konekt-token-1');
  assert.equal(await box.open(await box.seal('')), '');
  assert.equal(reads.n, 1, 'the key is read once per process');
});

test('two boxes over the same kept key open each other\'s values (two nodes); another key does not', async () => {
  const kept = { key: null as string | null };
  const sealed = await boxOver(kept).seal('secret');
  assert.equal(await boxOver(kept).open(sealed), 'secret');
  await assert.rejects(boxOver({ key: null }).open(sealed));
});

test('a changed sealed value or an unknown form is refused, never opened to something else', async () => {
  const box = boxOver({ key: null });
  const sealed = await box.seal('secret');
  const [v, iv, tag, data] = sealed.split('.');
  const flipped = Buffer.from(data!, 'base64url');
  flipped[0]! ^= 1;
  await assert.rejects(box.open([v, iv, tag, flipped.toString('base64url')].join('.')));
  await assert.rejects(box.open('plain-token'));
  assert.equal(looksSealed('plain-token'), false);
  assert.equal(looksSealed('v1.a.b.c'), false);
});
