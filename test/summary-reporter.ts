// Prints the run's totals as one plain closing line, `Tests: N passed, N failed, N skipped`, which CI
// reads to know that tests ran (vitest's own summary is not in a form it recognises).
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const count = { passed: 0, failed: 0, skipped: 0 };
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed' || state === 'failed') count[state]++;
        else count.skipped++;
      }
      // A file that fails to load has no tests but is a failure all the same.
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) count.failed++;
    }
    console.log(`\nTests: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped`);
  }
}
