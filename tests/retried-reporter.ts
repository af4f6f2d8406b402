import type { FullConfig, Reporter, Suite } from '@playwright/test/reporter';

/**
 * Lists, at the end of a run, every journey that needed a retry (CI retries a failed journey
 * once, decision 199): one that passed the second time is flaky, and the run says so instead of
 * hiding it behind a green result.
 */
export default class RetriedReporter implements Reporter {
  private root: Suite | undefined;

  onBegin(_config: FullConfig, suite: Suite): void {
    this.root = suite;
  }

  onEnd(): void {
    const retried = (this.root?.allTests() ?? []).filter((test) => test.results.length > 1);
    console.log(`\nRetried journeys: ${retried.length === 0 ? 'none' : retried.length}`);
    for (const test of retried) {
      const first = test.results[0]!;
      const why = first.error?.message?.split('\n')[0] ?? first.status;
      console.log(`  ${test.outcome() === 'flaky' ? 'flaky ' : 'failed'} ${test.titlePath().filter(Boolean).join(' › ')}`);
      console.log(`         first attempt: ${why}`);
    }
  }

  printsToStdio(): boolean {
    return false;
  }
}
