// Entry point: mounts the console. Loaded as a module file (no inline script: the CSP is strict).
// Pico first (the design system's base), then the console's tokens and layout over it.
import { render } from 'preact';
import '@picocss/pico/css/pico.min.css';
import './theme.ts';
import { App } from './app.tsx';
import './styles.css';

render(<App />, document.getElementById('app')!);
