import { useEffect, useRef, useState } from 'react';
import type { AdminSubmission } from '@shared/submission-schemas';
import { errorMessage } from '@client/lib/api';
import { toast } from '@client/lib/toast';
import { useLinkedSubmission } from './admin-queries';

/** The parameter of the daily digest's link, /admin?submission={id}. */
const LINK_PARAM = 'submission';

/** The submission a desk URL's query names, or null. */
export function linkedSubmissionIdOf(search: string): string | null {
  return new URLSearchParams(search).get(LINK_PARAM) || null;
}

/** The desk URL without its link, so a reload does not open the submission again; null when there is none. */
export function withoutLink(pathname: string, search: string): string | null {
  const params = new URLSearchParams(search);
  if (!params.has(LINK_PARAM)) return null;
  params.delete(LINK_PARAM);
  const rest = params.toString();
  return rest ? `${pathname}?${rest}` : pathname;
}

/** The link's job is done once its submission was shown (or refused). */
export function forgetLink(): void {
  const url = withoutLink(window.location.pathname, window.location.search);
  if (url !== null) window.history.replaceState(null, '', url);
}

/**
 * The daily digest links to /admin?submission={id}: that submission is read on its own (it may be
 * on no page the filters show) and handed to `onOpen` once; a link to one that cannot be read
 * says why and is forgotten.
 */
export function useDeepLinkedSubmission(onOpen: (submission: AdminSubmission) => void): void {
  const [linkedId, setLinkedId] = useState(() => linkedSubmissionIdOf(window.location.search));
  const linked = useLinkedSubmission(linkedId);
  const open = useRef(onOpen);
  useEffect(() => {
    open.current = onOpen;
  });
  useEffect(() => {
    if (linked.data) open.current(linked.data);
    else if (linked.isError) {
      toast({ title: 'Error', description: errorMessage(linked.error), variant: 'destructive' });
      forgetLink();
    }
    if (linked.data || linked.isError) setLinkedId(null);
  }, [linked.data, linked.isError, linked.error]);
}
