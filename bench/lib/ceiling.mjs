// What a mode could reach on this machine at best, measured rather than argued: the baseline's
// own CPU plus the least CPU the mode must add to it (receiving and hashing every byte in a
// Hangar process, as a bare Node server spends it; hashing it in the client too where the client
// sends a checksum), spread perfectly over every core with no other cost. A mode whose target
// lies above its ceiling cannot meet it on this machine, however its code is written.

/**
 * The best ratio of baseline time to mode time: the baseline's wall time over the longer of that
 * and (baseline CPU + extra CPU) / cores.
 */
export function ceilingRatio({ baselineWall, baselineCpu, extraCpu, cores }) {
  return baselineWall / Math.max(baselineWall, (baselineCpu + extraCpu) / cores);
}

/**
 * The CPU a mode must add for `bytes`: `receiveAndHashPerByte` (the bare sink's CPU per byte)
 * for the one Hangar process that receives and hashes them, and a client-side hash at
 * `sha256BytesPerSecond` when the client sends a checksum.
 */
export function leastAddedCpu({ bytes, receiveAndHashPerByte, sha256BytesPerSecond, clientHashes }) {
  return bytes * receiveAndHashPerByte + (clientHashes ? bytes / sha256BytesPerSecond : 0);
}
