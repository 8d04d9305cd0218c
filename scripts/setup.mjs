// Installs what the tests need beyond npm packages, from Debian's packages: Chromium for
// the browser tests (playwright-core never downloads a browser), docker-compose to
// parse compose.yaml (no container engine runs here; `config` needs none), CloudCompare
// with Xvfb for the point-cloud readers' tests, and Open3D for the mesh export. Idempotent;
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
// The point-cloud tests read PLY files written by an independent writer: CloudCompare,
// run headless under Xvfb (test/pointclouds/ply.test.ts).
if (!fs.existsSync('/usr/bin/CloudCompare')) missing.push('cloudcompare');
if (!fs.existsSync('/usr/bin/xvfb-run')) missing.push('xvfb', 'xauth');
// Export to mesh runs Open3D's surface reconstruction in a worker process (src/modules/meshexport):
// Debian's python3-open3d for Debian's Python (MESH_PYTHON defaults to it).
if (spawnSync('/usr/bin/python3', ['-c', 'import open3d'], { stdio: 'ignore' }).status !== 0) missing.push('python3-open3d');

if (missing.length) {
  console.log(`setup: installing Debian ${missing.join(', ')} for the tests`);
  const sudo = process.getuid && process.getuid() === 0 ? '' : 'sudo ';
  execSync(`${sudo}apt-get update -qq && DEBIAN_FRONTEND=noninteractive ${sudo}apt-get install -y -qq ${missing.join(' ')}`, {
    stdio: 'inherit',
    shell: '/bin/bash',
  });
}
