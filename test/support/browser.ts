// Headless Debian Chromium driven by playwright-core (which never downloads a browser).
// CHROMIUM_PATH overrides the executable (scripts/setup.mjs installs /usr/bin/chromium).
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

const QUIET = ['--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...QUIET, '--disable-gpu'] });
}

/** The same browser with WebGL on the CPU (SwiftShader through ANGLE): the console's 3D view. */
export function launchWebGLBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...QUIET, '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
  });
}
