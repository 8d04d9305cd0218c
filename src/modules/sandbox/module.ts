// The sandbox module (issue 32, docs/sandbox.md): the integrators' tools on the operator
// surface. Snapshots (the port src/core/ports/snapshots.ts behind the node's request gate)
// and the request journal exist with OPERATOR_TOKEN; fault rules with SANDBOX=1 as well.
// Offers: RequestGate, SnapshotControl, Faults, Journal.
// Needs: the snapshot engine (an adapter, built by compose.ts), the sandbox clock (a restore
// brings its offset back); FAULTS_FILE is read by its own adapter (adapters/faults-file.ts).
import type { FeatureModule } from '../../core/modules.ts';
import { defineModule } from '../contract.ts';
import { sandboxRoutes } from './http/routes.ts';
import { sandboxHooks } from './http/hooks.ts';
import { faultsFileReader } from './adapters/faults-file.ts';
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
  config: { sandbox: boolean; operatorToken: string | undefined; sandboxTools: { journalSize: number; faultsFile: string | undefined } };
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

const feature: FeatureModule<SandboxNeeds, SandboxOffers> = {
  name: 'sandbox',
  create: ({ ids, snapshots, sandboxClock, config }) => {
    const loadFaultsFile = faultsFileReader(config.sandboxTools.faultsFile);
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

export const sandboxModule = defineModule<SandboxNeeds, SandboxOffers, Record<never, never>, never, 'fault-rule-not-found' | 'injected-fault'>({
  name: 'sandbox',
  feature,
  // Under /_operator, beside the operator module's routes, behind the same token.
  routes: { other: { plugin: sandboxRoutes, prefix: '/_operator' } },
  requestHooks: sandboxHooks,
  errorCodes: {
    'fault-rule-not-found': { status: [404], defined: ['ours'] },
    'injected-fault': { status: [500, 502, 503, 504], defined: ['ours'] },
  },
  settings: [
    { env: 'SNAPSHOTS_DIR', does: 'where named snapshots are kept (docs/sandbox.md "Snapshots")', default: 'DATA_DIR/snapshots' },
    { env: 'JOURNAL_SIZE', does: 'how many requests the request journal keeps (0: no journal); with OPERATOR_TOKEN', default: '1000' },
    { env: 'FAULTS_FILE', does: 'a JSON {"rules": [...]} of fault rules loaded at start; needs SANDBOX=1', default: 'none' },
  ],
});
