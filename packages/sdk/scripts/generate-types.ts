// `npm run sdk:types`: (re)writes packages/sdk/src/generated/*.ts from the service's
// OpenAPI documents. Run it after any change to a route's schema.
import fs from 'node:fs';
import path from 'node:path';
import { GENERATED_DIR, generateTypes } from './openapi-types.ts';

const files = await generateTypes();
fs.mkdirSync(GENERATED_DIR, { recursive: true });
for (const [name, text] of files) {
  fs.writeFileSync(path.join(GENERATED_DIR, name), text);
  console.log(`wrote ${path.relative(process.cwd(), path.join(GENERATED_DIR, name))} (${text.length} characters)`);
}
