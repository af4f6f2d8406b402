import { describe, expect, it } from 'vitest';
import { formatLongDate, formatLongDateTime } from './format';

describe('formatLongDate', () => {
  it("writes a date as en-US's long date style does, in the browser's time zone", () => {
    const intl = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });
    const dates = [new Date(2026, 10, 21), new Date(2026, 0, 1, 0, 0), new Date(2024, 1, 29, 23, 59), new Date(1999, 11, 31), new Date(2030, 8, 9, 12)];
    for (let day = 0; day < 400; day += 7) dates.push(new Date(2025, 0, 1 + day, day % 24));
    for (const date of dates) expect(formatLongDate(date)).toBe(intl.format(date));
    expect(formatLongDate('2026-11-21T00:00:00')).toBe('November 21, 2026');
    expect(formatLongDate(new Date(2026, 10, 21).getTime())).toBe('November 21, 2026');
  });

  it('answers the fallback for no date or a value that is not one', () => {
    for (const value of [null, undefined, '', 'not a date']) expect(formatLongDate(value)).toBe('Unknown date');
    expect(formatLongDate(null, '—')).toBe('—');
    expect(formatLongDateTime('not a date', '—')).toBe('—');
    expect(formatLongDateTime(new Date(2026, 10, 21, 15, 7))).toBe(
      new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(new Date(2026, 10, 21, 15, 7)),
    );
  });
});
