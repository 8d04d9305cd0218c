// The process logger: pino, JSON lines, human-readable (pino-pretty) when stdout is a
// terminal. Secrets are redacted (CONTRACT §1); the HTTP app logs through the same instance.
import pino, { type Logger as PinoLogger } from 'pino';
import pretty from 'pino-pretty';

export type { PinoLogger };

export function createLogger(opts: { level: string; pretty: boolean; redact: string[] }): PinoLogger {
  const options = { level: opts.level, redact: opts.redact };
  if (!opts.pretty) return pino(options);
  // In this thread and synchronous: lines are not lost when the process exits.
  return pino(options, pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }));
}
