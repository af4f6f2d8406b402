import { describe, expect, it } from 'vitest';
import { paymentTypeOf } from './payment-type';

describe("the artist's Type column", () => {
  it('says Free for the free plan, whatever its payment', () => {
    expect(paymentTypeOf({ pricingTier: 'free', paymentStatus: null }).label).toBe('Free');
  });

  it('says Paid only once the payment succeeded', () => {
    expect(paymentTypeOf({ pricingTier: 'premium', paymentStatus: 'succeeded' }).label).toBe('Paid');
    expect(paymentTypeOf({ pricingTier: 'premium', paymentStatus: 'pending' }).label).toBe('Unpaid');
    expect(paymentTypeOf({ pricingTier: 'basic', paymentStatus: null }).label).toBe('Unpaid');
  });

  it('says Refunded for a refunded one, not Unpaid', () => {
    expect(paymentTypeOf({ pricingTier: 'professional', paymentStatus: 'refunded' })).toEqual({ label: 'Refunded', variant: 'secondary' });
  });

  it('says a failed payment failed', () => {
    expect(paymentTypeOf({ pricingTier: 'premium', paymentStatus: 'failed' })).toEqual({ label: 'Payment failed', variant: 'destructive' });
  });

  it('says a draft has no plan until the wizard reached the plan step, then names the plan (issue 36)', () => {
    const draft = { status: 'draft' as const, pricingTier: 'free' as const, paymentStatus: null, submissionType: 'track' as const };
    expect(paymentTypeOf({ ...draft, draftStep: 2 }).label).toBe('No plan yet');
    expect(paymentTypeOf({ ...draft, draftStep: 4, pricingTier: 'premium' }).label).toBe('Premium plan');
    expect(paymentTypeOf({ ...draft, draftStep: 3, submissionType: 'video' }).label).toBe('Free plan');
  });
});
