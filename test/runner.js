// Runs the suites in jest's workers, in parallel, the timing suite first and the document check last.
const TestRunner = require('jest-runner').default;

/**
 * Suites that measure time (a rank test over login timings) start first, each on a worker it keeps to the end, so the
 * machine is shared with as few suites as the workers allow beside it (one, at jest.config.js's two workers).
 */
const FIRST = ['timing.e2e.spec.ts'];
/** The document check reads the answers every other suite recorded (FINAPI_RECORD_DIR): it runs when they have all ended. */
const LAST = ['openapi-answers.e2e.spec.ts'];

const named = (names) => (test) => names.some((name) => test.path.endsWith(`/${name}`));

class PhasedRunner extends TestRunner {
  async runTests(tests, watcher, options) {
    const first = tests.filter(named(FIRST));
    const last = tests.filter(named(LAST));
    const rest = [...first, ...tests.filter((test) => !first.includes(test) && !last.includes(test))];
    // jest asks for one process (--runInBand, or a single suite): then everything runs in band, in this order.
    if (rest.length) await super.runTests(rest, watcher, options);
    if (last.length) await super.runTests(last, watcher, { ...options, serial: true });
  }
}

module.exports = PhasedRunner;
