// Transfer rate and time left, over a sliding window of samples (default 10 s): what a
// progress line shows. Runs anywhere (no Node API); time is given, so tests can fix it.
export interface RateSample {
  /** Bytes per second over the window (0 until two samples are a moment apart). */
  bytesPerSecond: number;
  /** Seconds left at that rate; undefined while the rate is unknown. */
  etaSeconds: number | undefined;
}

export class RateMeter {
  private readonly windowMs: number;
  private samples: { at: number; done: number }[] = [];

  constructor(windowMs = 10_000) {
    this.windowMs = windowMs;
  }

  /** Records `done` bytes at `now` (ms) and answers the rate and time left to `total`. */
  sample(done: number, total: number, now = Date.now()): RateSample {
    this.samples.push({ at: now, done });
    while (this.samples.length > 2 && now - this.samples[1]!.at >= this.windowMs) this.samples.shift();
    const first = this.samples[0]!;
    const seconds = (now - first.at) / 1000;
    const bytesPerSecond = seconds > 0.2 ? Math.max(0, (done - first.done) / seconds) : 0;
    return { bytesPerSecond, etaSeconds: bytesPerSecond > 0 ? Math.max(0, (total - done) / bytesPerSecond) : undefined };
  }
}
