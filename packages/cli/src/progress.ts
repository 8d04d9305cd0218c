// Progress bars (cli-progress) on standard error when it is a terminal; nothing when it is
// piped or redirected (logs and scripts get the results on standard output only).
import cliProgress from 'cli-progress';

export interface Progress {
  update(done: number, total: number, label?: string): void;
  stop(): void;
}

const NONE: Progress = { update() {}, stop() {} };

export function progressBar(what: string, unit: 'bytes' | 'items' = 'bytes', stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY) return NONE;
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `${what} [{bar}] {percentage}% | {value}/{total} | {label}`,
      formatValue: (v, _o, type) => (unit === 'bytes' && (type === 'value' || type === 'total') ? size(v) : String(v)),
      hideCursor: true,
      clearOnComplete: false,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total, label = '') {
      if (!started) {
        bar.start(total, done, { label });
        started = true;
      } else {
        bar.setTotal(total);
        bar.update(done, { label });
      }
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(0)} KiB`);
