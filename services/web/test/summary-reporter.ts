import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** One closing line in the form the repo's test script sums ("Tests  N passed | M failed (T)"). */
export default class SummaryReporter implements Reporter {
  private readonly outcome = new Map<string, 'passed' | 'failed' | 'skipped'>();

  onTestEnd(test: TestCase, result: TestResult): void {
    const status = result.status === 'skipped' ? 'skipped' : test.outcome() === 'expected' || test.outcome() === 'flaky' ? 'passed' : 'failed';
    if (result.status === 'passed' || result.status === 'skipped' || result.retry >= test.retries) this.outcome.set(test.id, status);
  }

  onEnd(_result: FullResult): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const status of this.outcome.values()) counts[status] += 1;
    const parts = [`${counts.passed} passed`];
    if (counts.failed) parts.push(`${counts.failed} failed`);
    if (counts.skipped) parts.push(`${counts.skipped} skipped`);
    console.log(`      Tests  ${parts.join(' | ')} (${this.outcome.size})`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
