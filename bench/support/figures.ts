/**
 * The figures issues 27, 37 and 50 ask `npm run bench` to show beside their goals. Each bench records its
 * own as it measures (`recordFigure`); bench/run.ts prints them together at the end, so the
 * answer to "are we there" is one table instead of a scroll through every bench's output. Each
 * figure carries the load average at the moment it was recorded, and the table is printed under
 * the run's yardstick (bench/support/yardstick.ts) and over the load average at the end: a figure
 * means something only beside the machine that gave it (issue 50, part 5).
 */
import os from 'node:os';
import { describeYardstick, loadAverage, measuredYardstick } from './yardstick';

export interface Figure {
  figure: string;
  value: string;
  goal: string;
  /** Whether the goal is met; undefined where the figure is a reading without a pass mark. */
  met: boolean | undefined;
  /** The 1-minute load average when the figure was recorded. */
  load: number;
}

const figures: Figure[] = [];

export function recordFigure(figure: string, value: string, goal: string, met: boolean | undefined): void {
  figures.push({ figure, value, goal, met, load: os.loadavg()[0]! });
}

export function printFigures(): void {
  if (figures.length === 0) return;
  console.log('\n=== figures beside their goals (issues 27, 37 and 50) ===');
  const y = measuredYardstick();
  console.log(y ? describeYardstick(y) : 'yardstick: not measured in this run');
  console.table(
    figures.map(({ figure, value, goal, met, load }) => ({ figure, value, goal, '': met === undefined ? '' : met ? 'ok' : 'MISSED', load: load.toFixed(2) })),
  );
  console.log(`load average ${loadAverage()} at the end, ${os.availableParallelism()} cores`);
}
