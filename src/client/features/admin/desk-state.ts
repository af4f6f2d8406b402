import { ADMIN_PAGE_SIZE_DEFAULT, ASSIGNEE_FILTERS, SORTS, type AdminSort } from '@shared/admin';
import { DUE_FILTERS, type DueFilter } from '@shared/production';
import { DECISION_FILTERS, type DecisionFilter } from '@shared/decisions';
import { RIGHTS_STATES, type DeskRightsState } from '@shared/rights';
import type { AdminSubmission } from '@shared/submission-schemas';
import type { AdminListParams } from './admin-queries';

/**
 * The review desk's list state (CONTRACT §14) as one reducer: the filters above the list, the page
 * shown, the rows picked for a bulk action and the focused row. Pure, so the rules are tested
 * without a browser (desk-state.test.ts); `AdminDashboard` only wires it to the screen.
 */

export const DESK_PAGE_SIZE = ADMIN_PAGE_SIZE_DEFAULT;

export type AssigneeView = 'all' | (typeof ASSIGNEE_FILTERS)[number];
export type DueView = 'any' | DueFilter;
export type RightsView = 'any' | DeskRightsState;
/** The viral screen (CONTRACT §25): every submission, or the suspect hits waiting for a decision. */
export type ViralView = 'any' | 'suspect';
export type DecisionView = 'any' | DecisionFilter;

/** The choices of each filter, in the order the menus show them, from the server's own lists. */
export const ASSIGNEE_VIEWS: readonly AssigneeView[] = ['all', ...ASSIGNEE_FILTERS];
export const DUE_VIEWS: readonly DueView[] = ['any', ...DUE_FILTERS];
export const RIGHTS_VIEWS: readonly RightsView[] = ['any', ...RIGHTS_STATES];
export const VIRAL_VIEWS: readonly ViralView[] = ['any', 'suspect'];
export const DECISION_VIEWS: readonly DecisionView[] = ['any', ...DECISION_FILTERS];
export const DESK_SORTS = SORTS;

/** What the filters show as typed or picked; the search and the tag reach the query once typing settles. */
export interface DeskFilters {
  status: string;
  search: string;
  view: AssigneeView;
  tagInput: string;
  dueView: DueView;
  /** Rights before release (CONTRACT §22): what publishing waits for. */
  rightsView: RightsView;
  viralView: ViralView;
  /** Decisions (CONTRACT §26): overdue, or due today. */
  decisionView: DecisionView;
  sort: AdminSort;
}

export const INITIAL_FILTERS: DeskFilters = { status: 'all', search: '', view: 'all', tagInput: '', dueView: 'any', rightsView: 'any', viralView: 'any', decisionView: 'any', sort: 'created' };

/** The list query of the filters, page aside: `settled` holds the search and tag once typing paused. */
type DeskQuery = Omit<AdminListParams, 'page' | 'pageSize'>;

export const settleSearch = (search: string) => search.trim();
/** Tags are stored lower-case (CONTRACT §14), so the filter matches whatever case was typed. */
export const settleTag = (tag: string) => tag.trim().toLowerCase();

export function toDeskQuery(filters: DeskFilters, settled: { q: string; tag: string }): DeskQuery {
  return {
    status: filters.status,
    q: settled.q,
    assignee: filters.view === 'all' ? '' : filters.view,
    tag: settled.tag,
    due: filters.dueView === 'any' ? '' : filters.dueView,
    rights: filters.rightsView === 'any' ? '' : filters.rightsView,
    viral: filters.viralView === 'any' ? '' : filters.viralView,
    decision: filters.decisionView === 'any' ? '' : filters.decisionView,
    sort: filters.sort,
  };
}

/** Whether the query narrows the list (the empty list then says "no match" rather than "none yet"). */
export function isFiltered(query: DeskQuery): boolean {
  return query.status !== 'all' || query.q !== '' || query.assignee !== '' || query.tag !== '' || query.due !== '' || query.rights !== '' || Boolean(query.viral) || (query.decision ?? '') !== '';
}

/** One string per distinct query, so the state can tell when the list it belongs to changed. */
export function keyOfQuery(query: DeskQuery): string {
  return JSON.stringify([query.status, query.q, query.assignee, query.tag, query.due, query.rights, query.viral ?? '', query.decision, query.sort]);
}

export interface DeskState {
  filters: DeskFilters;
  /** The query the page and the picks below belong to (`keyOfQuery`). */
  query: string;
  page: number;
  picked: ReadonlyMap<string, AdminSubmission>;
  /** The focused row's index on the page (j/k move it). */
  active: number;
  /** Where a shift-click range starts: the row last picked or unpicked. */
  anchor: number | null;
}

export function initialDeskState(): DeskState {
  return { filters: INITIAL_FILTERS, query: keyOfQuery(toDeskQuery(INITIAL_FILTERS, { q: '', tag: '' })), page: 1, ...NOTHING_PICKED };
}

const NOTHING_PICKED = { picked: new Map<string, AdminSubmission>(), active: 0, anchor: null } as const;

type DeskAction =
  | { type: 'filter'; filters: Partial<DeskFilters> }
  /** The list's query changed (a filter, the sort, or a settled search or tag). */
  | { type: 'show-query'; query: string }
  | { type: 'turn-page'; page: number }
  /** A row's checkbox, a click or `x`; with `range`, every row from the anchor to it takes the same state. */
  | { type: 'pick'; rows: readonly AdminSubmission[]; index: number; checked: boolean; range: boolean }
  | { type: 'pick-all'; rows: readonly AdminSubmission[]; checked: boolean }
  | { type: 'clear-picks' }
  | { type: 'focus'; index: number }
  | { type: 'move'; by: number; rowCount: number };

export function deskReducer(state: DeskState, action: DeskAction): DeskState {
  switch (action.type) {
    case 'filter':
      return { ...state, filters: { ...state.filters, ...action.filters } };
    case 'show-query':
      // A new filter, sort or search starts again at its first page, with nothing picked.
      return action.query === state.query ? state : { ...state, query: action.query, page: 1, ...NOTHING_PICKED };
    case 'turn-page':
      return action.page === state.page ? state : { ...state, page: Math.max(1, action.page), ...NOTHING_PICKED };
    case 'pick':
      return { ...state, picked: pickRows(state.picked, action, state.anchor), anchor: action.index, active: action.index };
    case 'pick-all':
      return { ...state, picked: action.checked ? new Map(action.rows.map((row) => [row.id, row])) : new Map() };
    case 'clear-picks':
      return { ...state, picked: new Map() };
    case 'focus':
      return { ...state, active: action.index };
    case 'move':
      return { ...state, active: Math.max(0, Math.min(action.rowCount - 1, state.active + action.by)) };
  }
}

function pickRows(
  picked: ReadonlyMap<string, AdminSubmission>,
  { rows, index, checked, range }: { rows: readonly AdminSubmission[]; index: number; checked: boolean; range: boolean },
  anchor: number | null,
): Map<string, AdminSubmission> {
  const next = new Map(picked);
  const from = range && anchor !== null ? Math.min(anchor, index) : index;
  const to = range && anchor !== null ? Math.max(anchor, index) : index;
  for (const row of rows.slice(from, to + 1)) {
    if (checked) next.set(row.id, row);
    else next.delete(row.id);
  }
  return next;
}

/** What the pager says: "Showing 51–100 of 240", page 2 of 5, and whether there is a next page. */
interface PagerState {
  pages: number;
  firstShown: number;
  lastShown: number;
  hasNext: boolean;
}

/**
 * `capped` is the server's "at least this many" (a count it stopped at): then only a full page
 * says that another may follow.
 */
export function pagerOf({ total, capped, page, shown, pageSize }: { total: number; capped: boolean; page: number; shown: number; pageSize: number }): PagerState {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const firstShown = total === 0 ? 0 : (page - 1) * pageSize + 1;
  return { pages, firstShown, lastShown: firstShown + shown - 1, hasNext: capped ? shown === pageSize : page < pages };
}
