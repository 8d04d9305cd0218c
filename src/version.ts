// The service version, from package.json (sent as x-scanbase-version and in /healthz).
import { createRequire } from 'node:module';

const pkg = createRequire(import.meta.url)('../package.json') as { version: string };
export const VERSION: string = pkg.version;
