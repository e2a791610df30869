// The order jest runs the test files in: jest's own (files that failed last time first, then the
// longest by its record or, on a fresh clone, by size), except that the end-to-end files on their
// worker's shared Hangar (libs/testing/src/shared-hangar.ts) come after every file that starts its
// own. Plain CommonJS on purpose: jest requires the sequencer as it is, untranspiled.
//
// Why: a shared Hangar starts with the first file that asks for it and lives until the run ends.
// Mixed in with the files that start their own, it sat idle beside each of them (six processes and
// their database polls, 7–9 % of a core: bench/idle-cost.bench.mjs) through most of the tier, on
// both workers. Last, it is started once the files that need a Hangar of their own are done.
'use strict';
const fs = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

/** Whether the file uses its worker's shared Hangar: those go last. */
function usesSharedHangar(file) {
  try {
    return /\bsharedHangar\(/.test(fs.readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}

class SharedHangarsLastSequencer extends Sequencer {
  /** jest's order, with the files on a shared Hangar moved after the rest, each part keeping it. */
  sort(tests) {
    const ordered = super.sort(tests);
    const last = new Set(ordered.filter((test) => usesSharedHangar(test.path)));
    return [...ordered.filter((test) => !last.has(test)), ...last];
  }
}

module.exports = SharedHangarsLastSequencer;
module.exports.usesSharedHangar = usesSharedHangar;
