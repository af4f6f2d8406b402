import { useEffect, useRef, useState } from 'react';
import type { Submission } from '@shared/submission-schemas';
import { apiRequest } from '@client/lib/api';
import { markSubmissionListStale } from '@client/entities/submission/submission-queries';
import { createDraftSaver, type DraftSaveState, type DraftSaver } from './draft-saver';
import type { WizardForm } from './wizard-form';

interface DraftAutosaveOptions {
  form: WizardForm;
  /** The wizard's current step (1-based), saved so the draft resumes there. */
  step: number;
  /** The draft being continued, if any. */
  draftId: string | null;
  onCreated: (id: string) => void;
}

interface DraftAutosave {
  draftId: string | null;
  state: DraftSaveState;
  /** Saves what is pending now and resolves with the draft's id (null if there is nothing to save). */
  flush: DraftSaver['flush'];
  /** No more saves: the draft was submitted or deleted. */
  stop: DraftSaver['stop'];
}

/**
 * Saves the wizard as a draft (CONTRACT §12) a moment after each change, through one
 * `createDraftSaver` (draft-saver.ts, where the order of saves is decided and tested). A change
 * still waiting for its moment is sent at once when the wizard closes (Close, a header link) or
 * the page goes away (a closed tab, a phone switching apps), with `keepalive` so the browser
 * finishes the request after the page is gone.
 */
export function useDraftAutosave({ form, step, draftId: initialId, onCreated }: DraftAutosaveOptions): DraftAutosave {
  const [draftId, setDraftId] = useState(initialId);
  const [state, setState] = useState<DraftSaveState>(initialId ? 'saved' : 'idle');
  const stepRef = useRef(step);
  const onCreatedRef = useRef(onCreated);
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

  const [saver] = useState(() =>
    createDraftSaver({
      initialId,
      read: () => ({ values: form.getValues(), step: stepRef.current }),
      send: ({ method, path, input, keepalive }) => apiRequest<Submission>(method, path, input, { keepalive }),
      onState: setState,
      onCreated: (id) => {
        setDraftId(id);
        // Once the wizard is gone its address is no longer the page's: nothing to point at the draft.
        if (mountedRef.current) onCreatedRef.current(id);
      },
      onSaved: () => void markSubmissionListStale(),
    }),
  );

  useEffect(() => {
    const subscription = form.watch(() => saver.schedule());
    return () => subscription.unsubscribe();
  }, [form, saver]);

  useEffect(() => {
    if (stepRef.current === step) return;
    stepRef.current = step;
    saver.schedule();
  }, [step, saver]);

  useEffect(() => {
    const onPageHide = () => saver.flushPending(true, true);
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') saver.flushPending(true);
    };
    // pagehide: a closed tab or a reload; visibilitychange: a phone that switches apps and may
    // never come back to fire pagehide.
    window.addEventListener('pagehide', onPageHide);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      document.removeEventListener('visibilitychange', onVisibility);
      // The wizard closes (Close, a header link) within a second of a change: it is saved, not dropped.
      saver.flushPending(false);
    };
  }, [saver]);

  return { draftId, state, flush: saver.flush, stop: saver.stop };
}
