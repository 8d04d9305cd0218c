// The sandbox module (issue 32, docs/sandbox.md): the integrators' tools on the operator
// surface. Snapshots (the port src/core/ports/snapshots.ts behind the node's request gate)
// and the request journal exist with OPERATOR_TOKEN; fault rules with SANDBOX=1 as well.
// Offers: RequestGate, SnapshotControl, Faults, Journal.
// Needs: the snapshot engine (an adapter, built by compose.ts), the sandbox clock (a restore
// brings its offset back), the FAULTS_FILE reader.
import type { FeatureModule } from '../../core/modules.ts';
import { invalidInput, type DomainError } from '../../core/errors.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { Snapshots } from '../../core/ports/snapshots.ts';
import type { SandboxClock } from '../../core/operator/index.ts';
import { createRequestGate, type RequestGate } from './core/request-gate.ts';
import { createSnapshotControl, type SnapshotControl } from './core/snapshot-control.ts';
import { createFaults, type Faults } from './core/faults.ts';
import { createJournal, type Journal } from './core/journal.ts';

export interface SandboxNeeds {
  ids: Ids;
  snapshots: Snapshots;
  sandboxClock: SandboxClock;
  /** Reads FAULTS_FILE (null when unset): a rule list as POST /_operator/faults takes it. */
  loadFaultsFile: () => Promise<unknown>;
  config: { sandbox: boolean; operatorToken: string | undefined; sandboxTools: { journalSize: number } };
}

export interface SandboxOffers {
  /** The node's request gate: a restore or a reset runs with it closed. */
  requestGate: RequestGate;
  snapshotControl: SnapshotControl;
  /** The fault rules (SANDBOX=1; the list stays empty otherwise). */
  faults: Faults;
  /** The request journal (OPERATOR_TOKEN and JOURNAL_SIZE > 0), null otherwise. */
  journal: Journal | null;
}

/** How long a restore waits for the requests in flight before it starts anyway. */
export const RESTORE_DRAIN_MS = 30_000;

export const sandboxModule: FeatureModule<SandboxNeeds, SandboxOffers> = {
  name: 'sandbox',
  create: ({ ids, snapshots, sandboxClock, loadFaultsFile, config }) => {
    const requestGate = createRequestGate({ drainMs: RESTORE_DRAIN_MS });
    const faults = createFaults({ ids });
    const journalOn = Boolean(config.operatorToken) && config.sandboxTools.journalSize > 0;
    return {
      offers: {
        requestGate,
        snapshotControl: createSnapshotControl({ snapshots, gate: requestGate, afterRestore: () => sandboxClock.load() }),
        faults,
        journal: journalOn ? createJournal({ size: config.sandboxTools.journalSize }) : null,
      },
      start: async () => {
        if (!config.sandbox) return;
        const rules = await loadFaultsFile();
        if (rules === null) return;
        try {
          faults.replace(rules);
        } catch (e) {
          throw invalidInput(`FAULTS_FILE: ${(e as Error).message}`, (e as DomainError).values);
        }
      },
    };
  },
};
