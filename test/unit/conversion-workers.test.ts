// @engine-independent: these tests use no database (the PostgreSQL pass leaves them to the PGlite one).
// The service converts scans on every core but one: the conversion's passes all run in its
// worker threads, and the service's requests keep a core.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serviceConversionWorkers } from '../../src/modules/pointclouds/adapters/converter.ts';

test('a conversion in the service uses every core but one, and at least one worker', () => {
  assert.equal(serviceConversionWorkers(16), 15);
  assert.equal(serviceConversionWorkers(2), 1);
  assert.equal(serviceConversionWorkers(1), 1);
});
