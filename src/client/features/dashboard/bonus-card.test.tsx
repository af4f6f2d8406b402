import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ViralHitsProgress } from './bonus-card';

const text = (hits: number) => renderToStaticMarkup(<ViralHitsProgress hits={hits} />).replace(/<[^>]+>/g, '');

describe('the viral-hits dots', () => {
  it('say in words what they count toward', () => {
    expect(text(0)).toBe('3 more hits unlock the bonus');
    expect(text(2)).toBe('1 more hit unlocks the bonus');
    expect(text(3)).toBe('Bonus unlocked');
    expect(text(5)).toBe('Bonus unlocked');
  });

  it('fill one dot per hit, and hide the dots themselves from screen readers behind the words', () => {
    const html = renderToStaticMarkup(<ViralHitsProgress hits={2} />);
    expect(html.match(/bg-primary/g)).toHaveLength(2);
    expect(html).toMatch(/<span class="flex gap-1.5" aria-hidden="true">/);
  });
});
