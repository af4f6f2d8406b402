import { describe, expect, it } from 'vitest';
import { deskPublishingLabel, YOUTUBE_ATTEMPTS_MAX, YOUTUBE_OUTAGE_ADVICE, YOUTUBE_REFUSAL_ADVICE, youtubeAdvice } from './production-texts';

describe('what the team is told about publishing (CONTRACT §23, issue 36)', () => {
  it('advises on a used-up quota in words, whichever of Google’s two reasons names it, and on an outage that used the budget', () => {
    expect(youtubeAdvice('quotaExceeded', false)).toMatch(/quota for today is used up\. It resets at midnight Pacific time/);
    expect(youtubeAdvice('dailyLimitExceeded', false)).toBe(youtubeAdvice('quotaExceeded', false));
    expect(youtubeAdvice(null, true)).toBe(YOUTUBE_OUTAGE_ADVICE);
    // Nothing to add to YouTube's own sentence: no advice, and no key of Object's prototype taken for a reason.
    expect(youtubeAdvice('invalidTitle', false)).toBeNull();
    expect(youtubeAdvice('toString', false)).toBeNull();
    expect(youtubeAdvice(null, false)).toBeNull();
  });

  it('names in the desk list a publication that failed (a quota as such) or is being retried, and nothing once it is over', () => {
    expect(deskPublishingLabel({ state: 'failed', attempts: 0, errorReason: 'quotaExceeded' })).toEqual({ text: 'Not published: YouTube quota used up', failed: true });
    expect(deskPublishingLabel({ state: 'failed', attempts: YOUTUBE_ATTEMPTS_MAX, errorReason: null })).toEqual({ text: 'Not published: YouTube failed', failed: true });
    expect(deskPublishingLabel({ state: 'queued', attempts: 3, errorReason: null })).toEqual({ text: 'Publishing: retrying (3 failed)', failed: false });
    expect(deskPublishingLabel({ state: 'uploading', attempts: 0, errorReason: null })).toEqual({ text: 'Publishing on YouTube', failed: false });
    expect(deskPublishingLabel({ state: 'published', attempts: 1, errorReason: null })).toBeNull();
    expect(deskPublishingLabel({ state: 'cancelled', attempts: 2, errorReason: null })).toBeNull();
    expect(Object.keys(YOUTUBE_REFUSAL_ADVICE)).toContain('uploadLimitExceeded');
  });
});
