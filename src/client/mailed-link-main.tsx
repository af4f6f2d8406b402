import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MailedLinkApp } from './mailed-link-app';
import './index.css';

/**
 * The light entry of the mailed-link pages (mailed-link.html, decision 202); the app's own is main.tsx.
 * The build runs it and its pages on Preact's React-compatible layer (vite.config.ts), development
 * on React: first-page-imports.test.ts holds their React imports to what preact/compat has.
 */
const root = document.getElementById('root');
if (!root) throw new Error('mailed-link.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <MailedLinkApp />
  </StrictMode>,
);
