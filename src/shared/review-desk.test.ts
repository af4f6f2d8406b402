import { describe, expect, it } from 'vitest';
import {
  isUnpaidPaidTier,
  needsUnpaidWarning,
  REFUNDED_WARNING,
  UNPAID_WARNING,
  unpaidWarningFor,
} from './review-desk';
import { paymentStateOf } from './submissions';

const of = (pricingTier: string, paymentStatus: string | null) => ({ pricingTier, paymentStatus });

describe('payment awareness (CONTRACT §14)', () => {
  it('counts a paid tier as unpaid unless its payment succeeded: none, pending, failed and refunded alike', () => {
    expect(isUnpaidPaidTier('basic', null)).toBe(true);
    expect(isUnpaidPaidTier('basic', 'pending')).toBe(true);
    expect(isUnpaidPaidTier('premium', 'failed')).toBe(true);
    expect(isUnpaidPaidTier('premium', 'refunded')).toBe(true);
    expect(isUnpaidPaidTier('premium', 'succeeded')).toBe(false);
    // The free plan never needs paying, whatever the column holds.
    expect(isUnpaidPaidTier('free', null)).toBe(false);
    expect(isUnpaidPaidTier('free', 'refunded')).toBe(false);
    expect(paymentStateOf('premium', 'refunded')).toBe('refunded');
  });

  it('warns before advancing an unpaid or refunded paid-tier submission, never before rejecting or for a paid one', () => {
    for (const status of ['under_review', 'approved', 'in_creation', 'completed']) {
      expect(needsUnpaidWarning(status, of('basic', 'refunded')), status).toBe(true);
      expect(needsUnpaidWarning(status, of('basic', 'failed')), status).toBe(true);
      expect(needsUnpaidWarning(status, of('basic', null)), status).toBe(true);
      expect(needsUnpaidWarning(status, of('basic', 'succeeded')), status).toBe(false);
      expect(needsUnpaidWarning(status, of('free', null)), status).toBe(false);
    }
    expect(needsUnpaidWarning('rejected', of('basic', 'refunded'))).toBe(false);
    expect(needsUnpaidWarning('pending', of('basic', null))).toBe(false);
  });

  it('says what is wrong with one submission, and counts them among several', () => {
    expect(unpaidWarningFor('approved', [of('premium', 'refunded')])).toBe(REFUNDED_WARNING);
    expect(unpaidWarningFor('approved', [of('premium', 'failed')])).toBe(UNPAID_WARNING);
    expect(unpaidWarningFor('approved', [of('premium', 'succeeded')])).toBeNull();
    expect(unpaidWarningFor('rejected', [of('premium', 'refunded')])).toBeNull();
    expect(unpaidWarningFor('completed', [of('premium', 'refunded'), of('basic', 'succeeded'), of('basic', null), of('free', null)])).toBe(
      '2 of these submissions are on a paid plan and have not been paid yet, or were refunded.',
    );
  });
});
