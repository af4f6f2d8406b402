import { useCallback, useEffect, useRef, useState } from 'react';
import type { Submission } from '@shared/submission-schemas';
import { apiRequest, errorCodeOf } from '@client/lib/api';
import { markSubmissionListStale } from '@client/entities/submission/submission-queries';
import { toDraftInput, type WizardForm, type WizardValues } from './wizard-form';

/** How long the wizard waits after the last change before it saves the draft. */
export const DRAFT_SAVE_DELAY_MS = 1000;

/**
 * Browsers refuse a `keepalive` request whose body, with the page's other ones in flight, passes
 * 64 KiB; a draft is far smaller (its texts are capped), and one that is not is sent without it.
 */
const KEEPALIVE_BODY_MAX = 60 * 1024;

export type DraftSaveState = 'idle' | 'saving' | 'saved' | 'failed';

interface DraftAutosaveOptions {
  form: WizardForm;
  /** The wizard's current step (1-based), saved so the draft resumes there. */
  step: number;
  /** The draft being continued, if any. */
  draftId: string | null;
  /** What a fresh wizard holds: until the artist enters something of their own, no draft is made. */
  blank: WizardValues;
  onCreated: (id: string) => void;
}

export interface DraftAutosave {
  draftId: string | null;
  state: DraftSaveState;
  /** Saves what is pending now and resolves with the draft's id (null if there is nothing to save). */
  flush: () => Promise<string | null>;
  /** No more saves: the draft was submitted or deleted. */
  stop: () => void;
}

/**
 * What the artist has entered, leaving out the choices every wizard starts with: picking "a
 * finished video" or "share a link" alone is not worth an "Untitled" row on the dashboard.
 */
function contentKey(values: WizardValues): string {
  const { submissionType: _type, submissionMethod: _method, ...content } = toDraftInput(values, 1);
  return JSON.stringify(content);
}

/**
 * Saves the wizard as a draft (CONTRACT §12) a moment after each change: the first save creates it
 * (POST /api/submissions/drafts), later ones change it (PATCH). Saves run one at a time, each with
 * the form as it is then, so the last one always carries the latest values. A change still
 * waiting for its moment is sent at once when the wizard closes (Close, a header link) or the page
 * goes away (a closed tab, a phone switching apps), with `keepalive` so the browser finishes the
 * request after the page is gone.
 */
export function useDraftAutosave({ form, step, draftId: initialId, blank, onCreated }: DraftAutosaveOptions): DraftAutosave {
  const [draftId, setDraftId] = useState(initialId);
  const [state, setState] = useState<DraftSaveState>(initialId ? 'saved' : 'idle');
  const idRef = useRef(initialId);
  const stepRef = useRef(step);
  const chainRef = useRef<Promise<unknown>>(Promise.resolve());
  const timerRef = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const stoppedRef = useRef(false);
  /** A save sent without `keepalive` is on its way: a page that goes away now would cancel it. */
  const sendingRef = useRef(false);
  const onCreatedRef = useRef(onCreated);
  const blankKey = useRef(contentKey(blank));
  useEffect(() => {
    onCreatedRef.current = onCreated;
  });

  const mountedRef = useRef(true);
  useEffect(() => {
    mountedRef.current = true;
    return () => {
      mountedRef.current = false;
    };
  }, []);

  /**
   * `leaving`: the page or the wizard may be going away, so the request must outlive it.
   * `unloading`: the page is being unloaded, which cancels the requests it has in flight.
   */
  const saveNow = useCallback((leaving = false, unloading = false): Promise<unknown> => {
    clearTimeout(timerRef.current);
    timerRef.current = undefined;
    const run = async () => {
      if (stoppedRef.current) return;
      const values = form.getValues();
      if (!idRef.current && contentKey(values) === blankKey.current) return;
      setState('saving');
      try {
        const input = toDraftInput(values, stepRef.current);
        const keepalive = leaving && JSON.stringify(input).length < KEEPALIVE_BODY_MAX;
        sendingRef.current = !keepalive;
        if (idRef.current) {
          await apiRequest<Submission>('PATCH', `/api/submissions/${encodeURIComponent(idRef.current)}`, input, { keepalive });
        } else {
          const created = await apiRequest<Submission>('POST', '/api/submissions/drafts', input, { keepalive });
          idRef.current = created.id;
          setDraftId(created.id);
          // Once the wizard is gone its address is no longer the page's: nothing to point at the draft.
          if (mountedRef.current) onCreatedRef.current(created.id);
        }
        void markSubmissionListStale();
        if (!stoppedRef.current) setState('saved');
      } catch (error) {
        // Submitted from another tab or device meanwhile: nothing more to save here.
        const code = errorCodeOf(error);
        if (code === 'draft_already_submitted' || code === 'submission_not_found') stoppedRef.current = true;
        setState('failed');
      } finally {
        sendingRef.current = false;
      }
    };
    // An unloading page cancels the requests it has in flight, so its save of a draft that exists
    // goes at once rather than after them (a new draft still waits for its id). Otherwise saves
    // stay in order, so an earlier one can never land after, and over, a later one.
    const leavingNow = unloading && idRef.current !== null;
    chainRef.current = leavingNow ? Promise.all([chainRef.current.catch(() => undefined), run()]) : chainRef.current.then(run, run);
    return chainRef.current;
  }, [form]);

  const schedule = useCallback(() => {
    if (stoppedRef.current) return;
    clearTimeout(timerRef.current);
    timerRef.current = setTimeout(() => void saveNow(), DRAFT_SAVE_DELAY_MS);
  }, [saveNow]);

  useEffect(() => {
    const subscription = form.watch(() => schedule());
    return () => subscription.unsubscribe();
  }, [form, schedule]);

  useEffect(() => {
    if (stepRef.current === step) return;
    stepRef.current = step;
    schedule();
  }, [step, schedule]);

  useEffect(() => {
    // A change still waiting is sent now; so is one on its way without keepalive, which the
    // browser cancels with the page.
    const flushPending = (pageGoing: boolean, unloading = false) => {
      if (timerRef.current !== undefined || (pageGoing && sendingRef.current)) void saveNow(true, unloading);
    };
    const onPageHide = () => flushPending(true, true);
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') flushPending(true);
    };
    // pagehide: a closed tab or a reload; visibilitychange: a phone that switches apps and may
    // never come back to fire pagehide.
    window.addEventListener('pagehide', onPageHide);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      document.removeEventListener('visibilitychange', onVisibility);
      // The wizard closes (Close, a header link) within a second of a change: it is saved, not dropped.
      flushPending(false);
    };
  }, [saveNow]);

  const flush = useCallback(async () => {
    await saveNow();
    return idRef.current;
  }, [saveNow]);

  const stop = useCallback(() => {
    stoppedRef.current = true;
    clearTimeout(timerRef.current);
  }, []);

  return { draftId, state, flush, stop };
}
