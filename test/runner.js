// Runs the suites in jest's workers, in parallel: the timing suite on a worker of its own beside them, the document
// check last.
const TestRunner = require('jest-runner').default;

/**
 * Suites that measure time (a rank test over login timings). Each failed login waits out a floor of about 60 ms, so
 * such a suite mostly sleeps: it runs on a worker of its own from the start, beside those that run the rest, rather
 * than holding one of them for its hundred seconds. It alternates its two kinds of login, so the load of the
 * suites beside it falls on both alike.
 */
const MEASURING = ['timing.e2e.spec.ts'];
/** The document check reads the answers every other suite recorded (FINAPI_RECORD_DIR): it runs when they have all ended. */
const LAST = ['openapi-answers.e2e.spec.ts'];

const named = (names) => (test) => names.some((name) => test.path.endsWith(`/${name}`));

class PhasedRunner extends TestRunner {
  constructor(globalConfig, context) {
    super(globalConfig, context);
    this.measuring = new TestRunner({ ...globalConfig, maxWorkers: 1 }, context);
  }

  /** jest's scheduler listens to this runner's events: it hears the measuring runner's too. */
  on(eventName, listener) {
    const unsubscribe = [super.on(eventName, listener), this.measuring.on(eventName, listener)];
    return () => unsubscribe.forEach((off) => off());
  }

  async runTests(tests, watcher, options) {
    const measuring = tests.filter(named(MEASURING));
    const last = tests.filter(named(LAST));
    const rest = tests.filter((test) => !measuring.includes(test) && !last.includes(test));
    // jest asks for one process (--runInBand, or a single suite): everything runs in band, one phase after the other.
    if (options.serial) {
      for (const phase of [measuring, rest, last]) if (phase.length) await super.runTests(phase, watcher, options);
      return;
    }
    await Promise.all([
      measuring.length ? this.measuring.runTests(measuring, watcher, options) : undefined,
      rest.length ? super.runTests(rest, watcher, options) : undefined,
    ]);
    if (last.length) await super.runTests(last, watcher, { ...options, serial: true });
  }
}

module.exports = PhasedRunner;
