// Runs the suites in jest's usual order, but the document check last: it reads every answer the others recorded.
const Sequencer = require('@jest/test-sequencer').default;

class LastSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const last = (t) => (t.path.endsWith('openapi-answers.e2e.spec.ts') ? 1 : 0);
    return [...sorted].sort((a, b) => last(a) - last(b));
  }
}

module.exports = LastSequencer;
