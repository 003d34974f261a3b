// Runs the suites in jest's workers, in parallel, except the few that must not share the machine or must come last.
const TestRunner = require('jest-runner').default;

/** Suites that measure time (a rank test over login timings): run after the others, alone, so no parallel suite skews them. */
const ALONE = ['timing.e2e.spec.ts'];
/** The document check reads the answers every other suite recorded (FINAPI_RECORD_DIR): it runs when they have all ended. */
const LAST = ['openapi-answers.e2e.spec.ts'];

const named = (names) => (test) => names.some((name) => test.path.endsWith(`/${name}`));

class PhasedRunner extends TestRunner {
  async runTests(tests, watcher, options) {
    const alone = tests.filter(named(ALONE));
    const last = tests.filter(named(LAST));
    const rest = tests.filter((test) => !alone.includes(test) && !last.includes(test));
    // jest asks for one process (--runInBand, or a single suite): it runs everything in band, in this order.
    if (rest.length) await super.runTests(rest, watcher, options);
    for (const phase of [alone, last]) if (phase.length) await super.runTests(phase, watcher, { ...options, serial: true });
  }
}

module.exports = PhasedRunner;
