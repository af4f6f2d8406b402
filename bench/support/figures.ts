/**
 * The figures issues 27 and 37 ask `npm run bench` to show beside their goals. Each bench records its
 * own as it measures (`recordFigure`); bench/run.ts prints them together at the end, so the
 * answer to "are we there" is one table instead of a scroll through every bench's output.
 */
export interface Figure {
  figure: string;
  value: string;
  goal: string;
  /** Whether the goal is met; undefined where the figure is a reading without a pass mark. */
  met: boolean | undefined;
}

const figures: Figure[] = [];

export function recordFigure(figure: string, value: string, goal: string, met: boolean | undefined): void {
  figures.push({ figure, value, goal, met });
}

export function printFigures(): void {
  if (figures.length === 0) return;
  console.log('\n=== figures beside their goals (issues 27 and 37) ===');
  console.table(figures.map(({ figure, value, goal, met }) => ({ figure, value, goal, '': met === undefined ? '' : met ? 'ok' : 'MISSED' })));
}
