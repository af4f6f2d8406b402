import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@client/lib/api';
import { DRAFT_SAVE_DELAY_MS, createDraftSaver, isWorthKeeping, type DraftRequest, type DraftSaveState } from './draft-saver';
import { defaultWizardValues, type WizardValues } from './wizard-form';

const blank = defaultWizardValues('Nora Vex');

/** A saver over a form held in a variable, whose requests wait until the test answers them. */
function harness(initialId: string | null = null) {
  let values: WizardValues = { ...blank };
  let step = 1;
  const requests: (DraftRequest & { answer(id?: string): void; fail(error: unknown): void })[] = [];
  const states: DraftSaveState[] = [];
  const created: string[] = [];
  let saved = 0;
  const saver = createDraftSaver({
    initialId,
    read: () => ({ values, step }),
    send: (request) =>
      new Promise((resolve, reject) => {
        requests.push({ ...request, answer: (id = 'd1') => resolve({ id }), fail: reject });
      }),
    onState: (state) => states.push(state),
    onCreated: (id) => created.push(id),
    onSaved: () => saved++,
  });
  return {
    saver,
    requests,
    states,
    created,
    saved: () => saved,
    edit(change: Partial<WizardValues>, atStep = step) {
      values = { ...values, ...change };
      step = atStep;
      saver.schedule();
    },
  };
}

/** Lets the saver's promise chain run to its next request or end. */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('isWorthKeeping', () => {
  it('is false for a wizard without a song title, whatever its first step holds (issue 43)', () => {
    for (const submissionType of ['track', 'video'] as const) {
      for (const submissionMethod of ['upload', 'link'] as const) {
        expect(isWorthKeeping({ ...blank, submissionType, submissionMethod })).toBe(false);
      }
    }
    expect(isWorthKeeping({ ...blank, submissionMethod: 'link', musicUrl: 'https://example.com/x' })).toBe(false);
    expect(isWorthKeeping({ ...blank, musicFileUrl: '/objects/uploads/started-and-left' })).toBe(false);
    expect(isWorthKeeping({ ...blank, pricingTier: 'premium', songTitle: '   ' })).toBe(false);
  });

  it('is true once the song has a title', () => {
    expect(isWorthKeeping({ ...blank, songTitle: 'Night Drive' })).toBe(true);
  });
});

describe('createDraftSaver', () => {
  it('makes no draft of a wizard that holds only its first step: an upload, a link, its choices', async () => {
    const h = harness();
    h.edit({ submissionType: 'video', submissionMethod: 'link' });
    h.edit({ videoFileUrl: '/objects/uploads/v1' });
    h.edit({ submissionMethod: 'link', videoUrl: 'https://example.com/v' });
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS);
    expect(h.requests).toEqual([]);
    expect(await h.saver.flush()).toBeNull();
  });

  it('saves a moment after the last change: POST first, with the step to resume at, then PATCH', async () => {
    const h = harness();
    h.edit({ songTitle: 'Nig' });
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS - 1);
    h.edit({ songTitle: 'Night Drive' }, 2);
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS - 1);
    expect(h.requests).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.requests).toHaveLength(1);
    expect(h.requests[0]).toMatchObject({ method: 'POST', path: '/api/submissions/drafts', keepalive: false });
    expect(h.requests[0]!.input).toMatchObject({ songTitle: 'Night Drive', draftStep: 2 });
    h.requests[0]!.answer('draft 1');
    await settle();
    expect(h.created).toEqual(['draft 1']);
    expect(h.saver.id).toBe('draft 1');
    expect(h.states).toEqual(['saving', 'saved']);
    expect(h.saved()).toBe(1);

    h.edit({ mood: 'calm' });
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS);
    expect(h.requests[1]).toMatchObject({ method: 'PATCH', path: '/api/submissions/draft%201' });
    expect(h.requests[1]!.input.mood).toBe('calm');
  });

  it('runs saves one at a time, each with the values of its own moment', async () => {
    const h = harness('d1');
    h.edit({ songTitle: 'One' });
    void h.saver.saveNow();
    await settle();
    h.edit({ songTitle: 'Two' });
    void h.saver.saveNow();
    await settle();
    // The second waits for the first to be answered.
    expect(h.requests).toHaveLength(1);
    h.requests[0]!.answer();
    await settle();
    expect(h.requests.map((r) => r.input.songTitle)).toEqual(['One', 'Two']);
  });

  it('sends a save of an existing draft at once when the page unloads, beside the one in flight', async () => {
    const h = harness('d1');
    h.edit({ songTitle: 'One' });
    void h.saver.saveNow();
    await settle();
    h.edit({ songTitle: 'Two' });
    h.saver.flushPending(true, true);
    await settle();
    expect(h.requests.map((r) => [r.input.songTitle, r.keepalive])).toEqual([
      ['One', false],
      ['Two', true],
    ]);
  });

  it('flushes only what is pending: a waiting change, or a save in flight without keepalive when the page goes', async () => {
    const h = harness('d1');
    h.saver.flushPending(true);
    await settle();
    expect(h.requests).toHaveLength(0);

    h.edit({ songTitle: 'One' });
    h.saver.flushPending(false);
    await settle();
    expect(h.requests).toHaveLength(1);
    expect(h.requests[0]!.keepalive).toBe(true);
    h.requests[0]!.answer();
    await settle();

    h.edit({ songTitle: 'Two' });
    void h.saver.saveNow();
    await settle();
    expect(h.requests[1]!.keepalive).toBe(false);
    h.saver.flushPending(false);
    await settle();
    expect(h.requests).toHaveLength(2);
    h.saver.flushPending(true);
    h.requests[1]!.answer();
    await settle();
    expect(h.requests).toHaveLength(3);
    expect(h.requests[2]!.keepalive).toBe(true);
  });

  it('says a save failed and keeps saving later changes', async () => {
    const h = harness('d1');
    h.edit({ songTitle: 'One' });
    void h.saver.saveNow();
    await settle();
    h.requests[0]!.fail(new ApiError(503, 'Service Unavailable', ''));
    await settle();
    expect(h.states).toEqual(['saving', 'failed']);
    expect(h.saved()).toBe(0);
    h.edit({ songTitle: 'Two' });
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS);
    expect(h.requests).toHaveLength(2);
  });

  it('stops for good once the draft was submitted elsewhere', async () => {
    const h = harness('d1');
    h.edit({ songTitle: 'One' });
    void h.saver.saveNow();
    await settle();
    h.requests[0]!.fail(new ApiError(409, 'Conflict', JSON.stringify({ message: 'Already submitted', code: 'draft_already_submitted' })));
    await settle();
    h.edit({ songTitle: 'Two' });
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS);
    await h.saver.flush();
    expect(h.requests).toHaveLength(1);
  });

  it('drops a waiting change and saves nothing more once stopped', async () => {
    const h = harness('d1');
    h.edit({ songTitle: 'One' });
    h.saver.stop();
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS);
    h.saver.flushPending(true, true);
    await settle();
    expect(h.requests).toHaveLength(0);
  });
});
