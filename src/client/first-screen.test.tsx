import { readFileSync } from 'node:fs';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MAILED_LINK_DOCUMENT } from '@shared/first-pages';
import { FullScreenSpinner, PAGE_LOADING_TEXT } from '@client/components/ui/spinner';
import { AUTH_LOADING_TEXT } from '@client/lib/auth';

describe('index.html', () => {
  it("holds the app's first screen exactly as React renders it, so nothing jumps when the app takes over", () => {
    const html = readFileSync(new URL('./index.html', import.meta.url), 'utf8');
    const root = /<div id="root">([\s\S]*)<\/div>\s*<script/.exec(html)?.[1];
    expect(root).toBe(renderToStaticMarkup(<FullScreenSpinner text={AUTH_LOADING_TEXT} />));
  });

  it("the mailed-link document holds the spinner its light entry shows while the page's code loads (decision 202)", () => {
    const html = readFileSync(new URL(`./${MAILED_LINK_DOCUMENT}`, import.meta.url), 'utf8');
    const root = /<div id="root">([\s\S]*)<\/div>\s*<script/.exec(html)?.[1];
    expect(root).toBe(renderToStaticMarkup(<FullScreenSpinner text={PAGE_LOADING_TEXT} />));
  });
});
