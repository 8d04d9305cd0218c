// The sandbox module's settings (docs/sandbox.md): the integrators' tools, snapshots, the
// request journal and fault rules.
import path from 'node:path';
import { ConfigError, integer } from '../../kernel-config.ts';
import type { ModuleSettings } from '../contract.ts';

export interface SandboxToolsConfig {
  /** SNAPSHOTS_DIR (default DATA_DIR/snapshots): where named snapshots are kept. */
  snapshotsDir: string;
  /** JOURNAL_SIZE: how many requests the journal keeps (0: no journal); only with OPERATOR_TOKEN. */
  journalSize: number;
  /** FAULTS_FILE: a JSON list of fault rules loaded at start (SANDBOX only). */
  faultsFile: string | undefined;
}

export const sandboxSettings: ModuleSettings<{ sandboxTools: SandboxToolsConfig }> = {
  rows: [
    { env: 'SNAPSHOTS_DIR', default: '`DATA_DIR/snapshots`', does: 'where [named snapshots](docs/sandbox.md#snapshots) are kept (`/_operator/snapshots`, `scanbase sandbox snapshot`)' },
    {
      env: 'JOURNAL_SIZE',
      default: '`1000`',
      does: 'how many requests the [request journal](docs/sandbox.md#the-request-journal) keeps (`/_operator/journal`, with `OPERATOR_TOKEN`); `0`: no journal',
    },
    {
      env: 'FAULTS_FILE',
      default: 'unset',
      does: 'a JSON `{"rules": [...]}` of [fault rules](docs/sandbox.md#fault-rules) loaded at start; needs `SANDBOX=1`; a bad rule stops the start naming its field',
    },
  ],
  read(env, { dataDir, sandbox }) {
    if (env.FAULTS_FILE && !sandbox) throw new ConfigError('FAULTS_FILE needs SANDBOX=1: fault rules exist only in a sandbox');
    return {
      sandboxTools: {
        snapshotsDir: path.resolve(env.SNAPSHOTS_DIR || path.join(dataDir, 'snapshots')),
        journalSize: integer(env, 'JOURNAL_SIZE', 1000, 0, 100_000),
        faultsFile: env.FAULTS_FILE ? path.resolve(env.FAULTS_FILE) : undefined,
      },
    };
  },
};
