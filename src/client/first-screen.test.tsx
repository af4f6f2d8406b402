import { readFileSync } from 'node:fs';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { FullScreenSpinner } from '@client/components/ui/spinner';
import { AUTH_LOADING_TEXT } from '@client/lib/auth';

describe('index.html', () => {
  it("holds the app's first screen exactly as React renders it, so nothing jumps when the app takes over", () => {
    const html = readFileSync(new URL('./index.html', import.meta.url), 'utf8');
    const root = /<div id="root">([\s\S]*)<\/div>\s*<script/.exec(html)?.[1];
    expect(root).toBe(renderToStaticMarkup(<FullScreenSpinner text={AUTH_LOADING_TEXT} />));
  });
});
