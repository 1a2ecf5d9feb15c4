// Orders test files longest first, so that the suite does not end with one long file running alone
// while the other workers are idle. Jest's own order uses the durations of an earlier run, which a
// fresh clone (and so CI) does not have: it then falls back to file size, and a long end-to-end file
// of modest size can start last. The files that drive the real Pulumi CLI live in test/cli/ and
// test/packaging/ and take 20-200 s where the rest take 1-10 s, so they go first; within each group,
// Jest's order.
//
// WSBRIDGE_SHUFFLE_SEED=<number> shuffles the files instead (each group on its own, so the suite's
// length stays the same): which files run side by side, and after which, changes from seed to seed.
// That finds a file that depends on another's leftovers or breaks what another reads (CONTRIBUTING.md,
// "Tests"). jest's --randomize shuffles the tests inside each file, which the scenario files forbid:
// their tests are the steps of one story on one stack, in order.
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

const END_TO_END = new Set(["cli", "packaging"]);

/** Whether a test file drives the real CLI (by the folder it is in). */
function endToEnd(test) {
  return END_TO_END.has(path.basename(path.dirname(test.path)));
}

/** Fisher-Yates, sorted by path first so that the order depends on the seed alone. */
function shuffled(tests, next) {
  const out = [...tests].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

class LongestFirstSequencer extends Sequencer {
  sort(tests) {
    const seed = process.env.WSBRIDGE_SHUFFLE_SEED;
    if (seed !== undefined && seed !== "") {
      if (!/^\d+$/.test(seed)) throw new Error(`WSBRIDGE_SHUFFLE_SEED must be a whole number, got "${seed}"`);
      // The emulator's seeded generator (mulberry32), from dist/ (scripts/test.sh builds it before jest).
      const { mulberry32 } = require("../../dist/emulator/faults");
      const next = mulberry32(Number(seed));
      process.stderr.write(`test order shuffled with WSBRIDGE_SHUFFLE_SEED=${seed}\n`);
      return [...shuffled(tests.filter(endToEnd), next), ...shuffled(tests.filter((t) => !endToEnd(t)), next)];
    }
    const ordered = super.sort(tests);
    return [...ordered.filter(endToEnd), ...ordered.filter((t) => !endToEnd(t))];
  }
}

module.exports = LongestFirstSequencer;
