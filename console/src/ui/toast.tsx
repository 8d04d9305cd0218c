// Toasts: short confirmations of what just happened ("Project created"), read out politely
// and gone after a few seconds; errors are not toasts (they stay where they happened).
import { useEffect, useState } from 'preact/hooks';
import { Icon } from './icons.tsx';

interface Toast {
  id: number;
  text: string;
}
let next = 1;
let shown: Toast[] = [];
const listeners = new Set<() => void>();
const TOAST_MS = 4_000;

export function toast(text: string): void {
  const t = { id: next++, text };
  shown = [...shown, t].slice(-3);
  for (const f of listeners) f();
  setTimeout(() => {
    shown = shown.filter((x) => x !== t);
    for (const f of listeners) f();
  }, TOAST_MS);
}

/** The toasts' place, rendered once by the shell: fixed, so a toast never moves the page. */
export function Toasts() {
  const [list, setList] = useState(shown);
  useEffect(() => {
    const f = () => setList(shown);
    listeners.add(f);
    return () => void listeners.delete(f);
  }, []);
  return (
    <div class="toasts" role="status" aria-live="polite">
      {list.map((t) => (
        <p key={t.id} class="toast">
          <Icon name="ok" /> {t.text}
        </p>
      ))}
    </div>
  );
}
