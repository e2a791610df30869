import { createHash, type Hash } from 'node:crypto';

/**
 * The SHA-256 of each upload this replica has seen from its first byte, and how far it got.
 * An upload whose requests all reach this replica in order is hashed as it arrives; one that
 * moved between replicas (or outlived a restart) is hashed by reading the assembled object
 * back once, at completion. Bounded: the oldest are dropped first, and cost only that read.
 */
export class RunningHashes {
  private readonly hashes = new Map<string, { offset: number; hash: Hash }>();

  constructor(private readonly capacity = 10_000) {}

  /** A copy to continue from `offset`, or undefined when this replica did not see every byte before it. */
  continueAt(id: string, offset: number): Hash | undefined {
    if (offset === 0) return createHash('sha256');
    const known = this.hashes.get(id);
    return known && known.offset === offset ? known.hash.copy() : undefined;
  }

  remember(id: string, offset: number, hash: Hash): void {
    this.hashes.delete(id);
    this.hashes.set(id, { offset, hash });
    if (this.hashes.size > this.capacity) this.hashes.delete(this.hashes.keys().next().value!);
  }

  forget(id: string): void {
    this.hashes.delete(id);
  }
}
