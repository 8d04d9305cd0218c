// The measurements module (vendor "Measurement" and our writes): its public face. src/http,
// the wiring and other modules import it through this file only. docs/annotations.md.
export { createMeasurements } from './core/measurements.ts';
export type { MeasurementInput, MeasurementView, Measurements } from './core/measurements.ts';
export type { MeasurementKind, MeasurementRecord, MeasurementsRepo } from './core/ports.ts';
export { MEASUREMENT_KINDS } from './core/ports.ts';
export { MEASUREMENT_LIMITS, measure, polygonArea } from './core/geometry.ts';
export { measurementsModule } from './module.ts';
