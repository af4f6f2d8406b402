import { useReducer } from 'react';
import { useDebounced } from '@client/lib/use-debounced';
import { useAdminSubmissions } from './admin-queries';
import { DESK_PAGE_SIZE, deskReducer, initialDeskState, isFiltered, keyOfQuery, pagerOf, settleSearch, settleTag, toDeskQuery } from './desk-state';

const SEARCH_DELAY_MS = 300;

/**
 * The desk's list: its state (desk-state.ts), the page of submissions it reads, and what the pager
 * says. The search and the tag query once typing pauses; when the query changes, the state moves
 * to it in the same render (page 1, nothing picked), so the old page of a new query is never read.
 */
export function useDeskList() {
  const [stored, dispatch] = useReducer(deskReducer, undefined, initialDeskState);
  const q = useDebounced(settleSearch(stored.filters.search), SEARCH_DELAY_MS);
  const tag = useDebounced(settleTag(stored.filters.tagInput), SEARCH_DELAY_MS);
  const query = toDeskQuery(stored.filters, { q, tag });
  const key = keyOfQuery(query);
  if (stored.query !== key) dispatch({ type: 'show-query', query: key });
  const state = deskReducer(stored, { type: 'show-query', query: key });

  const list = useAdminSubmissions({ ...query, page: state.page, pageSize: DESK_PAGE_SIZE });
  const data = list.data;
  const rows = data?.submissions ?? [];
  const pager = pagerOf({ total: data?.total ?? 0, capped: data?.totalCapped ?? false, page: state.page, shown: rows.length, pageSize: DESK_PAGE_SIZE });
  return {
    state,
    dispatch,
    query,
    filtered: isFiltered(query),
    list,
    rows,
    pager: { ...pager, hasNext: data ? pager.hasNext : false },
    activeRow: rows[Math.min(state.active, rows.length - 1)],
    allPicked: rows.length > 0 && rows.every((row) => state.picked.has(row.id)),
  };
}
