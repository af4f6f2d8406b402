import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { adoptSessionFromPage } from './lib/auth';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

adoptSessionFromPage();
const reactRoot = createRoot(root);
startTransition(() =>
  reactRoot.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
