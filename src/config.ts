// The node's settings (CONTRACT §1): the only reader of process.env. The kernel's settings
// (src/kernel-config.ts), then each module's, read by its contract's reader
// (src/modules/<m>/settings.ts) in the module list's order and merged into one Config. Every
// value is validated at start; a bad value stops the service with a message naming the
// variable. Adding a module with settings edits nothing here.
import { loadKernelConfig, type Env, type KernelConfig } from './kernel-config.ts';
import { MODULE_SETTINGS, type ModuleSettingValues } from './modules/registries.ts';
import type { ModuleSettings } from './modules/contract.ts';

export { ConfigError, DEFAULT_STORAGE_QUOTA_BYTES, shownSetting, type TrustProxy, type TrustProxyHops } from './kernel-config.ts';

/** Every setting of the node: the kernel's and the modules' (each module's needs name the keys it reads). */
export type Config = KernelConfig & ModuleSettingValues;

/**
 * The kernel's settings with each module's merged in, in order. A key given twice (by two
 * modules, or by a module and the kernel) is a programming error, not a bad value: it throws
 * a plain Error naming both owners.
 */
export function mergeModuleSettings(
  env: Env,
  kernel: KernelConfig,
  modules: readonly { module: string; settings: ModuleSettings }[],
): Record<string, unknown> {
  const config: Record<string, unknown> = { ...kernel };
  const owner: Record<string, string> = Object.fromEntries(Object.keys(kernel).map((key) => [key, 'src/kernel-config.ts']));
  for (const { module, settings } of modules) {
    for (const [key, value] of Object.entries(settings.read(env, kernel))) {
      if (Object.hasOwn(config, key)) throw new Error(`settings: ${key} is given by both ${owner[key]} and module ${module}`);
      config[key] = value;
      owner[key] = `module ${module}`;
    }
  }
  return config;
}

export function loadConfig(env: Env = process.env): Config {
  // What each module's reader returned, under its keys: the type ModuleSettingValues folds over.
  return mergeModuleSettings(env, loadKernelConfig(env), MODULE_SETTINGS) as unknown as Config;
}
