// Orders test files longest first, so that the suite does not end with one long file running alone
// while the other workers are idle. Jest's own order uses the durations of an earlier run, which a
// fresh clone (and so CI) does not have: it then falls back to file size, and a long end-to-end file
// of modest size can start last. The files that drive the real Pulumi CLI live in test/cli/ and
// test/packaging/ and take 20-200 s where the rest take 1-10 s, so they go first; within each group,
// Jest's order.
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

const END_TO_END = new Set(["cli", "packaging"]);

/** Whether a test file drives the real CLI (by the folder it is in). */
function endToEnd(test) {
  return END_TO_END.has(path.basename(path.dirname(test.path)));
}

class LongestFirstSequencer extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    return [...ordered.filter(endToEnd), ...ordered.filter((t) => !endToEnd(t))];
  }
}

module.exports = LongestFirstSequencer;
