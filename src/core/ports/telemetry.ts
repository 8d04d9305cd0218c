// What the core reports about itself: log lines for background failures (never swallowed,
// docs/operations.md) and the counters only the core can see. Adapters: pino and prom-client
// (src/adapters/telemetry); the core never imports either.

/** A structured logger (pino's shape): fields first, then the message. */
export interface Logger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** The core's counters (GET /metrics). */
export interface CoreMetrics {
  /** A job attempt failed; `final` when it will not be retried. */
  jobFailed(kind: string, final: boolean): void;
  /** A refresh whose conditional UPDATE consumed nothing: a concurrent refresh won, or the token was spent. */
  refreshLost(): void;
  /** Bytes of uploads registered as files. */
  uploadedBytes(bytes: number): void;
  /** The SMTP server accepted a relayed mail. */
  mailRelayed(): void;
  /** A relay attempt failed; `final` when the mail will not be retried. */
  mailRelayFailed(final: boolean): void;
  /** A webhook endpoint answered a delivery with 2xx. */
  webhookDelivered(): void;
  /** A webhook delivery attempt failed; `final` when it will not be retried. */
  webhookFailed(final: boolean): void;
  /** The relay disabled a failing webhook endpoint. */
  webhookDisabled(): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export const noMetrics: CoreMetrics = { jobFailed() {}, refreshLost() {}, uploadedBytes() {}, mailRelayed() {}, mailRelayFailed() {},
  webhookDelivered() {}, webhookFailed() {}, webhookDisabled() {},
};

/**
 * A failure as log fields: its type, message and stack, never the object (a driver's error
 * may carry a statement's parameters). Under `error`: pino reshapes anything under `err`.
 */
export function errorFields(e: unknown): Record<string, unknown> {
  return e instanceof Error ? { error: { type: e.name, message: e.message, stack: e.stack } } : { error: { message: String(e) } };
}
