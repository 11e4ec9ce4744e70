// Prints the run's totals as one plain closing line, `Tests: N passed, N failed, N skipped`, which CI
// reads to know that tests ran (vitest's own summary is not in a form it recognises).
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const count = { passed: 0, failed: 0, skipped: 0 };
    for (const module of modules) {
      let failedHere = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed' || state === 'failed') count[state]++;
        else count.skipped++;
        if (state === 'failed') failedHere++;
      }
      // A file that fails outside its tests (it does not load, or a hook fails) is a failure all the same.
      if (module.state() === 'failed' && failedHere === 0) count.failed++;
    }
    console.log(`\nTests: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped`);
  }
}
