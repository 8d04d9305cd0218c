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

/**
 * Closes a browser the test launched, waiting at most `graceMs`: a browser that does not
 * close by then is left to Playwright, which kills it with SIGKILL when the test process
 * exits (the runner ends a file's process once its tests are done: scripts/test.mjs).
 */
export async function closeBrowser(browser: Browser | undefined, graceMs = 15_000): Promise<void> {
  if (!browser) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  try {
    await Promise.race([browser.close(), late]);
  } finally {
    clearTimeout(timer);
  }
}
