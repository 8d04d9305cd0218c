// Progress of a transfer on a terminal (standard error, only when it is one): an overall
// line with the rate and the time left, and one line per file in flight with its own
// (cli-progress MultiBar). Piped or redirected, nothing is drawn.
import cliProgress from 'cli-progress';

export interface TransferProgress {
  /** The batch: bytes done of total, rate (bytes/s) and seconds left when known. */
  overall(done: number, total: number, rate: number, eta: number | undefined, label: string): void;
  /** One file; `finished` removes its line. */
  file(name: string, done: number, total: number, rate: number, eta: number | undefined, finished?: boolean): void;
  stop(): void;
}

const NONE: TransferProgress = { overall() {}, file() {}, stop() {} };

export const humanBytes = (bytes: number) =>
  bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(2)} GiB` : bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(0)} KiB`;

export const humanEta = (s: number | undefined) => {
  if (s === undefined || !Number.isFinite(s)) return '--:--';
  const t = Math.round(s);
  const h = Math.floor(t / 3600);
  const mm = String(Math.floor((t % 3600) / 60)).padStart(2, '0');
  const ss = String(t % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
};

export function transferProgress(what: string, stream: NodeJS.WriteStream = process.stderr): TransferProgress {
  if (!stream.isTTY) return NONE;
  const multi = new cliProgress.MultiBar(
    {
      stream,
      format: '{what} [{bar}] {percentage}% | {done}/{all} | {rate}/s | ETA {eta_h} | {label}',
      hideCursor: true,
      clearOnComplete: false,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  let top: cliProgress.SingleBar | null = null;
  const lines = new Map<string, cliProgress.SingleBar>();
  const payload = (done: number, total: number, rate: number, eta: number | undefined, label: string, name: string) =>
    ({ what: name, done: humanBytes(done), all: humanBytes(total), rate: humanBytes(rate), eta_h: humanEta(eta), label });
  return {
    overall(done, total, rate, eta, label) {
      top ??= multi.create(Math.max(total, 1), 0, payload(0, total, 0, undefined, label, what));
      top.setTotal(Math.max(total, 1));
      top.update(done, payload(done, total, rate, eta, label, what));
    },
    file(name, done, total, rate, eta, finished) {
      let line = lines.get(name);
      if (finished) {
        if (line) multi.remove(line);
        lines.delete(name);
        return;
      }
      if (!line) lines.set(name, (line = multi.create(Math.max(total, 1), 0, payload(0, total, 0, undefined, '', `  ${name}`))));
      line.update(done, payload(done, total, rate, eta, '', `  ${name}`));
    },
    stop() {
      multi.stop();
    },
  };
}
