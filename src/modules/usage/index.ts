// The usage module's public face (docs/usage.md): API 2's usage report of a subscription.
export type { UsageReports, UsageReportQuery } from './core/usage-report.ts';
export { reportPeriod, MAX_REPORT_DAYS, DEFAULT_REPORT_DAYS } from './core/usage-report.ts';
export type { UsageRow, UsageRepo } from './core/ports.ts';
export type { DownloadAction, DownloadCount, UsageRecorder } from './core/recorder.ts';
