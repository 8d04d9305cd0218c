// Light or dark: the system's choice unless the user picked one (kept in localStorage).
// Pico's tokens follow `data-theme` on <html>, and so do the console's own (styles.css);
// the 3D view reads its colours from the same tokens when the theme changes.
export type ThemeChoice = 'auto' | 'light' | 'dark';
const KEY = 'scanbase.console.theme';
const listeners = new Set<() => void>();
const media = window.matchMedia('(prefers-color-scheme: dark)');

export function themeChoice(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'auto';
  } catch {
    return 'auto';
  }
}

/** The theme in force (the system's when the choice is auto). */
export const effectiveTheme = (): 'light' | 'dark' => {
  const c = themeChoice();
  return c === 'auto' ? (media.matches ? 'dark' : 'light') : c;
};

function apply(): void {
  document.documentElement.setAttribute('data-theme', effectiveTheme());
  for (const f of listeners) f();
}

export function setThemeChoice(c: ThemeChoice): void {
  try {
    if (c === 'auto') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, c);
  } catch (e) {
    console.warn('theme: the choice could not be kept', e);
  }
  apply();
}

export function onThemeChange(f: () => void): () => void {
  listeners.add(f);
  return () => void listeners.delete(f);
}

media.addEventListener('change', apply);
apply();
