// Is the service reachable? Every request's network failure or timeout says "no", every
// answer (any status) says "yes". While it is unreachable the shell shows a banner and asks
// /livez every few seconds; the banner goes when an answer comes (docs/console.md "Errors
// and loading").
import { useEffect, useState } from 'preact/hooks';

export const PROBE_MS = 5_000;
let reachable = true;
let probe = 0;
const listeners = new Set<() => void>();

function set(next: boolean): void {
  if (reachable === next) return;
  reachable = next;
  for (const f of listeners) f();
  if (!next) schedule();
}

function schedule(): void {
  clearTimeout(probe);
  probe = window.setTimeout(() => void probeNow(), PROBE_MS);
}

/** Asks /livez now (the banner's "Try now"); answers whether the service answered. */
export async function probeNow(): Promise<boolean> {
  try {
    await fetch('/livez', { cache: 'no-store', signal: AbortSignal.timeout(PROBE_MS) });
    set(true);
    return true;
  } catch {
    if (!reachable) schedule();
    return false;
  }
}

export const reportAnswer = (): void => set(true);
export const reportUnreachable = (): void => set(false);

export function useReachable(): boolean {
  const [now, setNow] = useState(reachable);
  useEffect(() => {
    const f = () => setNow(reachable);
    listeners.add(f);
    f();
    return () => void listeners.delete(f);
  }, []);
  return now;
}
