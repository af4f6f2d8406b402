import { describe, expect, it } from 'vitest';
import {
  deskPublishingLabel,
  durationWords,
  YOUTUBE_ATTEMPTS_MAX,
  YOUTUBE_OTHER_REFUSAL_ADVICE,
  YOUTUBE_REFUSAL_ADVICE,
  youtubeAdvice,
  youtubeOutageAdvice,
} from './production-texts';

describe('what the team is told about publishing (CONTRACT §23, issue 36)', () => {
  it('advises on a used-up quota in words, whichever of Google’s two reasons names it, and on an outage that used the budget', () => {
    const refused = (reason: string | null) => youtubeAdvice({ reason, attempts: 0, triedForMs: 0 });
    expect(refused('quotaExceeded')).toMatch(/quota for today is used up\. It resets at midnight Pacific time/);
    expect(refused('dailyLimitExceeded')).toBe(refused('quotaExceeded'));
    // Nothing known of the reason: the words for a refusal of its own, and no key of Object's prototype taken for a reason.
    expect(refused('invalidTitle')).toBe(YOUTUBE_OTHER_REFUSAL_ADVICE);
    expect(refused('toString')).toBe(YOUTUBE_OTHER_REFUSAL_ADVICE);
    expect(refused(null)).toBe(YOUTUBE_OTHER_REFUSAL_ADVICE);
  });

  it('says how long an outage really went on, not a fixed half hour (issue 43 item 11)', () => {
    const outage = (ms: number) => youtubeAdvice({ reason: 'backendError', attempts: YOUTUBE_ATTEMPTS_MAX, triedForMs: ms });
    expect(outage(31 * 60_000 + 10_000)).toBe(youtubeOutageAdvice(31 * 60_000 + 10_000, YOUTUBE_ATTEMPTS_MAX));
    expect(outage(31 * 60_000)).toMatch(/^YouTube kept failing for 31 minutes \(8 tries\)/);
    expect(outage(20_000)).toMatch(/^YouTube kept failing for less than a minute \(8 tries\)/);
    expect(outage(65 * 60_000)).toMatch(/for 1 hour 5 minutes/);
    expect(durationWords(2 * 60 * 60_000)).toBe('2 hours');
    expect(durationWords(60_000)).toBe('1 minute');
  });

  it('tells the team to connect the channel again for an invalid or refused token, and who may upload for a permission refusal', () => {
    for (const reason of ['authError', 'invalidCredentials', 'invalid_grant']) {
      expect(youtubeAdvice({ reason, attempts: 0, triedForMs: 0 })).toMatch(/Connect the channel again on the Channel page/);
    }
    for (const reason of ['forbidden', 'insufficientPermissions']) {
      expect(youtubeAdvice({ reason, attempts: 0, triedForMs: 0 })).toMatch(/Connect the channel again with the channel’s owner or manager/);
    }
    expect(youtubeAdvice({ reason: 'uploadLimitExceeded', attempts: 0, triedForMs: 0 })).toMatch(/Publish again tomorrow/);
    // A known refusal wins over the count of tries: its advice is what helps.
    expect(youtubeAdvice({ reason: 'quotaExceeded', attempts: YOUTUBE_ATTEMPTS_MAX, triedForMs: 1_800_000 })).toBe(YOUTUBE_REFUSAL_ADVICE.quotaExceeded);
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
