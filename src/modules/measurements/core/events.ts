// The measurements module's events, merged into the kernel's catalogue (ModuleEventData);
// their invalidation rows are in module.ts.
import type { ProjectIds } from '../../../core/events/domain-events.ts';

declare module '../../../core/events/domain-events.ts' {
  interface ModuleEventData {
    'measurement.created': ProjectIds & { measurementId: string; workzoneId: string; kind: string };
    /** Also a move: `workzoneId` is where the measurement is now. */
    'measurement.updated': ProjectIds & { measurementId: string; workzoneId: string; kind: string };
    'measurement.deleted': ProjectIds & { measurementId: string; workzoneId: string };
  }
}

export const MEASUREMENT_EVENTS = ['measurement.created', 'measurement.updated', 'measurement.deleted'] as const;
export type MeasurementEvent = (typeof MEASUREMENT_EVENTS)[number];
