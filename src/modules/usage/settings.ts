// The usage module's setting (docs/usage.md): the vendor's hidePrivacyData.
import { bool } from '../../kernel-config.ts';
import type { ModuleSettings } from '../contract.ts';

export const usageSettings: ModuleSettings<{ hidePrivacyData: boolean }> = {
  rows: [
    {
      env: 'HIDE_PRIVACY_DATA',
      default: 'off',
      does: "`1`/`true`/`yes`/`on`: the usage report (`getUsageReport`, which names users) answers 403 `usage-report-unavailable` (the vendor's `hidePrivacyData`; see [docs/usage.md](docs/usage.md))",
    },
  ],
  read: (env) => ({ hidePrivacyData: bool(env, 'HIDE_PRIVACY_DATA') }),
};
