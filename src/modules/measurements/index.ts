// The measurements module's public face (vendor "Measurement" and our writes): what other
// modules and the wiring may import from it. docs/annotations.md.
export type { MeasurementInput, MeasurementView, Measurements } from './core/measurements.ts';
export type { MeasurementKind, MeasurementRecord, MeasurementsRepo, MeasurementsRepos } from './core/ports.ts';
export { MEASUREMENT_KINDS } from './core/ports.ts';
export { MEASUREMENT_LIMITS, measure, polygonArea } from './core/geometry.ts';
