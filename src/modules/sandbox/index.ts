// The sandbox module's public face: what the wiring (the admin command) and other modules may import.
export type { SnapshotControl, SnapshotInfo, SnapshotOptions } from './core/snapshot-control.ts';
export type { RequestGate } from './core/request-gate.ts';
