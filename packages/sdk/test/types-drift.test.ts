// @engine-independent: the service is built on an in-memory embedded database.
// The committed types (src/generated/) must be what the service's OpenAPI documents give now.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { GENERATED_DIR, REGENERATE_COMMAND, generateTypes } from '../scripts/openapi-types.ts';

test('types: src/generated matches the OpenAPI documents the service serves', async () => {
  const generated = await generateTypes();
  assert.deepEqual([...generated.keys()].sort(), fs.readdirSync(GENERATED_DIR).sort(), `the generated files differ: run \`${REGENERATE_COMMAND}\``);
  for (const [name, text] of generated) {
    const committed = fs.readFileSync(path.join(GENERATED_DIR, name), 'utf8');
    // A plain comparison first: deepEqual of two 200 kB strings prints both whole.
    if (committed !== text) {
      const a = committed.split('\n');
      const b = text.split('\n');
      const line = a.findIndex((l, i) => l !== b[i]);
      assert.fail(
        `packages/sdk/src/generated/${name} is out of date with the service's OpenAPI document: run \`${REGENERATE_COMMAND}\` and commit the result.\n` +
        `first difference at line ${line + 1}:\n  committed: ${a[line]}\n  generated: ${b[line]}`,
      );
    }
  }
});
