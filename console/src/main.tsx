// Entry point: mounts the console. Loaded as a module file (no inline script: the CSP is strict).
import { render } from 'preact';
import { App } from './app.tsx';
import './styles.css';

render(<App />, document.getElementById('app')!);
