import type { DraftSubmissionInput } from '@shared/submission-schemas';
import { errorCodeOf } from '@client/lib/api';
import { toDraftInput, type WizardValues } from './wizard-form';

/** How long the wizard waits after the last change before it saves the draft. */
export const DRAFT_SAVE_DELAY_MS = 1000;

/**
 * Browsers refuse a `keepalive` request whose body, with the page's other ones in flight, passes
 * 64 KiB; a draft is far smaller (its texts are capped), and one that is not is sent without it.
 */
const KEEPALIVE_BODY_MAX = 60 * 1024;

export type DraftSaveState = 'idle' | 'saving' | 'saved' | 'failed';

/** One save: POST creates the draft, PATCH changes the one that exists. */
export interface DraftRequest {
  method: 'POST' | 'PATCH';
  path: string;
  input: DraftSubmissionInput;
  keepalive: boolean;
}

interface DraftSaverOptions {
  /** The draft being continued, if any. */
  initialId: string | null;
  /** The wizard's values and step (1-based) as they are when a save runs. */
  read: () => { values: WizardValues; step: number };
  send: (request: DraftRequest) => Promise<{ id: string }>;
  onState: (state: DraftSaveState) => void;
  onCreated: (id: string) => void;
  /** After every save that went through (the dashboard's list is then stale). */
  onSaved: () => void;
}

/**
 * Whether the wizard holds a draft worth keeping: one with a song title. Until then nothing is
 * saved, so a wizard left on its first step (a link typed, a file uploaded, a choice made) leaves
 * no "Untitled · Draft" row on the dashboard (issue 43). The first step's uploads and link are
 * saved with the draft as soon as the title is typed on the next step; once the draft exists,
 * every change is saved, a title emptied again included.
 */
export function isWorthKeeping(values: WizardValues): boolean {
  return values.songTitle.trim() !== '';
}

export type DraftSaver = ReturnType<typeof createDraftSaver>;

/**
 * The draft's saves (CONTRACT §12), without React: the first save creates the draft, later ones
 * change it. Saves run one at a time, each with the form as it is then, so the last one always
 * carries the latest values. `useDraftAutosave` wires it to the form and the page's events.
 */
export function createDraftSaver(options: DraftSaverOptions) {
  let id = options.initialId;
  let chain: Promise<unknown> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  /** A save sent without `keepalive` is on its way: a page that goes away now would cancel it. */
  let sending = false;

  const run = async (leaving: boolean) => {
    if (stopped) return;
    const { values, step } = options.read();
    if (!id && !isWorthKeeping(values)) return;
    options.onState('saving');
    try {
      const input = toDraftInput(values, step);
      const keepalive = leaving && JSON.stringify(input).length < KEEPALIVE_BODY_MAX;
      sending = !keepalive;
      if (id) {
        await options.send({ method: 'PATCH', path: `/api/submissions/${encodeURIComponent(id)}`, input, keepalive });
      } else {
        const created = await options.send({ method: 'POST', path: '/api/submissions/drafts', input, keepalive });
        id = created.id;
        options.onCreated(created.id);
      }
      options.onSaved();
      if (!stopped) options.onState('saved');
    } catch (error) {
      // Submitted from another tab or device meanwhile: nothing more to save here.
      const code = errorCodeOf(error);
      if (code === 'draft_already_submitted' || code === 'submission_not_found') stopped = true;
      options.onState('failed');
    } finally {
      sending = false;
    }
  };

  /**
   * `leaving`: the page or the wizard may be going away, so the request must outlive it.
   * `unloading`: the page is being unloaded, which cancels the requests it has in flight.
   */
  const saveNow = (leaving = false, unloading = false): Promise<unknown> => {
    clearTimeout(timer);
    timer = undefined;
    // An unloading page cancels the requests it has in flight, so its save of a draft that exists
    // goes at once rather than after them (a new draft still waits for its id). Otherwise saves
    // stay in order, so an earlier one can never land after, and over, a later one.
    const leavingNow = unloading && id !== null;
    const save = () => run(leaving);
    chain = leavingNow ? Promise.all([chain.catch(() => undefined), save()]) : chain.then(save, save);
    return chain;
  };

  return {
    get id() {
      return id;
    },
    saveNow,
    /** A change: saved once the wizard has been still for DRAFT_SAVE_DELAY_MS. */
    schedule() {
      if (stopped) return;
      clearTimeout(timer);
      timer = setTimeout(() => void saveNow(), DRAFT_SAVE_DELAY_MS);
    },
    /**
     * A change still waiting is sent now; so is one on its way without keepalive when the page
     * goes (the browser cancels it with the page).
     */
    flushPending(pageGoing: boolean, unloading = false) {
      if (timer !== undefined || (pageGoing && sending)) void saveNow(true, unloading);
    },
    /** Saves what is pending now and resolves with the draft's id (null if there is nothing to save). */
    async flush(): Promise<string | null> {
      await saveNow();
      return id;
    },
    /** No more saves: the draft was submitted or deleted. */
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
