// The sandbox module (issue 32, docs/sandbox.md): the integrators' tools on the operator
// surface. Snapshots (the port src/core/ports/snapshots.ts behind the node's request gate)
// and the request journal exist with OPERATOR_TOKEN; fault rules with SANDBOX=1 as well.
// Offers: RequestGate, SnapshotControl, Faults, Journal, the injected faults' counter.
// Needs: the snapshot engine (an adapter, built by compose.ts), the sandbox clock (a restore
// brings its offset back), the node's /metrics registry; FAULTS_FILE is read by its own
// adapter (adapters/faults-file.ts).
import { Counter, type Registry } from 'prom-client';
import type { FeatureModule } from '../../core/modules.ts';
import { defineModule, type SettingsOf } from '../contract.ts';
import { sandboxSettings } from './settings.ts';
import { sandboxRoutes } from './http/routes.ts';
import { sandboxHooks, type FaultCounter } from './http/hooks.ts';
import { faultsFileReader } from './adapters/faults-file.ts';
import { invalidInput, type DomainError } from '../../core/errors.ts';
import type { Ids } from '../../core/ports/ids.ts';
import type { Snapshots } from '../../core/ports/snapshots.ts';
import type { SandboxClock } from '../operator/index.ts';
import { createRequestGate, type RequestGate } from './core/request-gate.ts';
import { createSnapshotControl, type SnapshotControl } from './core/snapshot-control.ts';
import { createFaults, type Faults } from './core/faults.ts';
import { createJournal, type Journal } from './core/journal.ts';
import { SANDBOX_ERROR_CODES } from './core/errors.ts';

export interface SandboxNeeds {
  ids: Ids;
  snapshots: Snapshots;
  sandboxClock: SandboxClock;
  /** The node's metrics (src/adapters/telemetry/prometheus.ts): one registry per composed node. */
  metrics: { registry: Registry };
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
  /** Counts an injected fault in GET /metrics (SANDBOX=1; does nothing otherwise). */
  faultCounter: FaultCounter;
}

/** How long a restore waits for the requests in flight before it starts anyway. */
export const RESTORE_DRAIN_MS = 30_000;

const feature: FeatureModule<SandboxNeeds, SandboxOffers> = {
  name: 'sandbox',
  create: ({ ids, snapshots, sandboxClock, metrics, config }) => {
    // Registered once per node, on the node's registry (not per app: a node may serve several).
    const injectedTotal = config.sandbox
      ? new Counter({
          name: 'scanbase_sandbox_faults_injected_total', help: 'Faults injected by the sandbox fault rules, by kind',
          labelNames: ['kind'] as const, registers: [metrics.registry],
        })
      : null;
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
        faultCounter: { injected: (kind) => injectedTotal?.inc({ kind }) },
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

export const sandboxModule = defineModule<SandboxNeeds, SandboxOffers, Record<never, never>, never, keyof typeof SANDBOX_ERROR_CODES, SettingsOf<typeof sandboxSettings>>({
  name: 'sandbox',
  feature,
  // Under /_operator, beside the operator module's routes, behind the same token.
  routes: { other: { plugin: sandboxRoutes, prefix: '/_operator' } },
  requestHooks: sandboxHooks,
  errorCodes: SANDBOX_ERROR_CODES,
  settings: sandboxSettings,
});
