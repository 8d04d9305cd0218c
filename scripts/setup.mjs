// Installs what the tests need beyond npm packages: Debian's Chromium for the browser
// tests (playwright-core never downloads a browser). Idempotent; needs root for apt.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

if (!fs.existsSync(CHROMIUM)) {
  console.log('setup: installing Debian chromium for the browser tests');
  const sudo = process.getuid && process.getuid() === 0 ? '' : 'sudo ';
  execSync(`${sudo}apt-get update -qq && DEBIAN_FRONTEND=noninteractive ${sudo}apt-get install -y -qq chromium`, {
    stdio: 'inherit',
    shell: '/bin/bash',
  });
}
