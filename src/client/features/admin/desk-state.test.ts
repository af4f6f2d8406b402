import { describe, expect, it } from 'vitest';
import type { AdminSubmission } from '@shared/submission-schemas';
import {
  ASSIGNEE_VIEWS,
  DUE_VIEWS,
  RIGHTS_VIEWS,
  INITIAL_FILTERS,
  deskReducer,
  initialDeskState,
  isFiltered,
  keyOfQuery,
  pagerOf,
  settleSearch,
  settleTag,
  toDeskQuery,
  type DeskState,
} from './desk-state';

const rows = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id }) as AdminSubmission);
const pickedIds = (state: DeskState) => [...state.picked.keys()].sort();

describe('the desk filters', () => {
  it('offer every assignee and deadline filter the server accepts, behind "all" and "any"', () => {
    expect(ASSIGNEE_VIEWS).toEqual(['all', 'me', 'none']);
    expect(DUE_VIEWS).toEqual(['any', 'overdue', 'today', 'week']);
    expect(RIGHTS_VIEWS).toEqual(['any', 'unsigned', 'partly_signed', 'allowlist_pending', 'complete']);
  });

  it('become the list query: "all" and "any" are no filter, the settled search and tag are used as given', () => {
    const filters = { ...INITIAL_FILTERS, search: ' typed but not settled', view: 'me' as const, dueView: 'overdue' as const, sort: 'rating' as const };
    expect(toDeskQuery(filters, { q: 'night', tag: 'synth' })).toEqual({ status: 'all', q: 'night', assignee: 'me', tag: 'synth', due: 'overdue', rights: '', viral: '', decision: '', sort: 'rating' });
    expect(toDeskQuery(INITIAL_FILTERS, { q: '', tag: '' })).toEqual({ status: 'all', q: '', assignee: '', tag: '', due: '', rights: '', viral: '', decision: '', sort: 'created' });
    expect(toDeskQuery({ ...INITIAL_FILTERS, rightsView: 'allowlist_pending' }, { q: '', tag: '' }).rights).toBe('allowlist_pending');
    // CONTRACT §25: the suspect viral hits waiting for a decision.
    expect(toDeskQuery({ ...INITIAL_FILTERS, viralView: 'suspect' }, { q: '', tag: '' }).viral).toBe('suspect');
    expect(isFiltered(toDeskQuery({ ...INITIAL_FILTERS, viralView: 'suspect' }, { q: '', tag: '' }))).toBe(true);
  });

  it('settle a search trimmed and a tag trimmed and lower-case', () => {
    expect(settleSearch('  Night Drive ')).toBe('Night Drive');
    expect(settleTag(' Synth-Pop ')).toBe('synth-pop');
  });

  it('say whether the list is narrowed (the sort alone does not narrow it)', () => {
    const none = toDeskQuery(INITIAL_FILTERS, { q: '', tag: '' });
    expect(isFiltered(none)).toBe(false);
    expect(isFiltered({ ...none, sort: 'due' })).toBe(false);
    for (const change of [{ status: 'pending' }, { q: 'x' }, { assignee: 'none' }, { tag: 'y' }, { due: 'today' }, { rights: 'unsigned' }, { decision: 'overdue' }]) {
      expect(isFiltered({ ...none, ...change })).toBe(true);
    }
  });

  it('key each distinct query differently and the same query the same', () => {
    const base = toDeskQuery(INITIAL_FILTERS, { q: '', tag: '' });
    expect(keyOfQuery({ ...base })).toBe(keyOfQuery(base));
    const keys = [base, { ...base, q: 'a' }, { ...base, tag: 'a' }, { ...base, status: 'a' }, { ...base, sort: 'due' as const }, { ...base, due: 'week' }, { ...base, rights: 'complete' }, { ...base, decision: 'today' }].map(keyOfQuery);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('deskReducer', () => {
  const onPage3WithPicks = (): DeskState => {
    let state = deskReducer(initialDeskState(), { type: 'turn-page', page: 3 });
    state = deskReducer(state, { type: 'pick', rows, index: 1, checked: true, range: false });
    return state;
  };

  it('starts at page 1 of the unfiltered list, nothing picked', () => {
    const state = initialDeskState();
    expect(state).toMatchObject({ filters: INITIAL_FILTERS, page: 1, active: 0, anchor: null });
    expect(state.picked.size).toBe(0);
    expect(state.query).toBe(keyOfQuery(toDeskQuery(INITIAL_FILTERS, { q: '', tag: '' })));
  });

  it('changes a filter and leaves the page until the query changes', () => {
    const state = deskReducer(onPage3WithPicks(), { type: 'filter', filters: { search: 'nig' } });
    expect(state.filters.search).toBe('nig');
    expect(state.page).toBe(3);
  });

  it('starts a new query at page 1 with nothing picked and no focus', () => {
    const before = onPage3WithPicks();
    const state = deskReducer(before, { type: 'show-query', query: 'another' });
    expect(state).toMatchObject({ query: 'another', page: 1, active: 0, anchor: null });
    expect(state.picked.size).toBe(0);
  });

  it('keeps everything when the query shown is the one it already has', () => {
    const before = onPage3WithPicks();
    expect(deskReducer(before, { type: 'show-query', query: before.query })).toBe(before);
  });

  it('turns a page with nothing picked, never below page 1', () => {
    const state = deskReducer(onPage3WithPicks(), { type: 'turn-page', page: 4 });
    expect(state.page).toBe(4);
    expect(state.picked.size).toBe(0);
    expect(deskReducer(initialDeskState(), { type: 'turn-page', page: 0 }).page).toBe(1);
  });

  it('picks and unpicks one row, which becomes the focus and the anchor', () => {
    let state = deskReducer(initialDeskState(), { type: 'pick', rows, index: 2, checked: true, range: false });
    expect(pickedIds(state)).toEqual(['c']);
    expect(state).toMatchObject({ active: 2, anchor: 2 });
    state = deskReducer(state, { type: 'pick', rows, index: 2, checked: false, range: false });
    expect(pickedIds(state)).toEqual([]);
  });

  it('picks the range from the anchor with shift, in either direction', () => {
    let state = deskReducer(initialDeskState(), { type: 'pick', rows, index: 3, checked: true, range: false });
    state = deskReducer(state, { type: 'pick', rows, index: 1, checked: true, range: true });
    expect(pickedIds(state)).toEqual(['b', 'c', 'd']);
    // The anchor is now row 1: unpicking 1..2 leaves row 3.
    state = deskReducer(state, { type: 'pick', rows, index: 2, checked: false, range: true });
    expect(pickedIds(state)).toEqual(['d']);
  });

  it('treats a shift-pick without an anchor as a single pick', () => {
    const state = deskReducer(initialDeskState(), { type: 'pick', rows, index: 4, checked: true, range: true });
    expect(pickedIds(state)).toEqual(['e']);
  });

  it('picks every row of the page or none, and clears the picks', () => {
    let state = deskReducer(initialDeskState(), { type: 'pick-all', rows, checked: true });
    expect(pickedIds(state)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(state.picked.get('d')).toBe(rows[3]);
    expect(deskReducer(state, { type: 'pick-all', rows, checked: false }).picked.size).toBe(0);
    state = deskReducer(state, { type: 'clear-picks' });
    expect(state.picked.size).toBe(0);
  });

  it('moves the focus within the page and stops at its ends', () => {
    let state = deskReducer(initialDeskState(), { type: 'move', by: -1, rowCount: 5 });
    expect(state.active).toBe(0);
    for (let i = 0; i < 7; i++) state = deskReducer(state, { type: 'move', by: 1, rowCount: 5 });
    expect(state.active).toBe(4);
    expect(deskReducer(state, { type: 'focus', index: 1 }).active).toBe(1);
  });
});

describe('pagerOf', () => {
  it('says which rows a page shows and how many pages there are', () => {
    expect(pagerOf({ total: 120, capped: false, page: 2, shown: 50, pageSize: 50 })).toEqual({ pages: 3, firstShown: 51, lastShown: 100, hasNext: true });
    expect(pagerOf({ total: 120, capped: false, page: 3, shown: 20, pageSize: 50 })).toEqual({ pages: 3, firstShown: 101, lastShown: 120, hasNext: false });
  });

  it('has one page and shows nothing for an empty list', () => {
    expect(pagerOf({ total: 0, capped: false, page: 1, shown: 0, pageSize: 50 })).toEqual({ pages: 1, firstShown: 0, lastShown: -1, hasNext: false });
  });

  it('offers a next page of a capped count only after a full page', () => {
    expect(pagerOf({ total: 1000, capped: true, page: 20, shown: 50, pageSize: 50 }).hasNext).toBe(true);
    expect(pagerOf({ total: 1000, capped: true, page: 21, shown: 7, pageSize: 50 }).hasNext).toBe(false);
  });
});
