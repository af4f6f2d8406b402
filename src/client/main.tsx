import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { adoptSessionFromPage } from './lib/auth';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

adoptSessionFromPage();
const reactRoot = createRoot(root);
// In a transition React renders the first screen in slices and lets the browser breathe between
// them: with the session already known, the whole dashboard would otherwise be one long task
// the moment the scripts arrive (decision 144).
startTransition(() =>
  reactRoot.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
