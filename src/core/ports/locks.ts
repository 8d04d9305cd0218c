// Named, cluster-wide mutual exclusion inside a transaction. Every node shares one
// database, so a lock taken here serialises the same work across nodes too.
export interface LocksRepo {
  /**
   * Waits until no other transaction holds any of these names, then holds them all until
   * this transaction ends (commit or rollback). Names are taken in one sorted order, so two
   * callers naming overlapping sets never deadlock each other.
   */
  exclusive(names: string[]): Promise<void>;
}
