import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { TERMS_VERSION } from '@shared/terms';
import { TermsOfServicePage } from './terms-of-service-page';

describe('the Terms of Service page', () => {
  it('dates "Last updated" by the version every licence record keeps, not by today (issue 23)', () => {
    const html = renderToStaticMarkup(
      // Rendered on the server side of wouter, which has no window.location.
      <Router ssrPath="/terms-of-service">
        <TermsOfServicePage />
      </Router>,
    );
    const time = /Last updated: <time dateTime="([^"]+)">([^<]+)<\/time>/.exec(html);
    expect(time?.[1]).toBe(TERMS_VERSION);
    const [year, month, day] = TERMS_VERSION.split('-').map(Number);
    // Read back in the local time zone, the shown date is the version's day, not one either side.
    const shown = new Date(time![2]!);
    expect([shown.getFullYear(), shown.getMonth() + 1, shown.getDate()]).toEqual([year, month, day]);
  });
});
