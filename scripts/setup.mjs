// Installs what the tests need beyond npm packages, from Debian's packages: Chromium for
// the browser tests (playwright-core never downloads a browser), and docker-compose to
// parse compose.yaml (no container engine runs here; `config` needs none). Idempotent;
// needs root (or sudo) for apt.
import { execSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const missing = [];
if (!fs.existsSync(CHROMIUM)) missing.push('chromium');
const hasCompose = ['docker compose version', 'docker-compose version'].some(
  (c) => spawnSync('sh', ['-c', c], { stdio: 'ignore' }).status === 0,
);
if (!hasCompose) missing.push('docker-compose');

if (missing.length) {
  console.log(`setup: installing Debian ${missing.join(', ')} for the tests`);
  const sudo = process.getuid && process.getuid() === 0 ? '' : 'sudo ';
  execSync(`${sudo}apt-get update -qq && DEBIAN_FRONTEND=noninteractive ${sudo}apt-get install -y -qq ${missing.join(' ')}`, {
    stdio: 'inherit',
    shell: '/bin/bash',
  });
}
