/**
 * Votes needed under `consensus` for an electorate of `electorateSize` clients: a strict
 * majority, floor(M/2)+1, or the configured quorum capped at M so a misconfiguration
 * (quorum 5 with 3 clients attached) cannot make a request unanswerable. Never below 1.
 */
export function consensusQuorum(electorateSize: number, configured?: number): number {
  if (configured !== undefined) return Math.max(1, Math.min(configured, electorateSize));
  return Math.floor(electorateSize / 2) + 1;
}

export type ConsensusProgress =
  | { decided: true; optionId: string; votesFor: number }
  | {
      decided: false;
      votesReceived: number;
      votesNeeded: number;
      quorum: number;
      optionTallies: Record<string, number>;
    };

/**
 * The tally of one consensus request. The electorate is frozen when the request is issued:
 * clients attaching later cannot vote, clients detaching later still can.
 *
 * A client holds one vote. Voting again REPLACES its earlier choice (a misclick can be
 * corrected until the quorum is reached); it never counts twice. The first option whose
 * tally reaches the quorum wins.
 */
export class ConsensusTally {
  readonly electorate: ReadonlySet<string>;
  readonly quorum: number;
  readonly #votes = new Map<string, string>();

  constructor(electorate: Iterable<string>, configuredQuorum?: number) {
    this.electorate = new Set(electorate);
    this.quorum = consensusQuorum(this.electorate.size, configuredQuorum);
  }

  mayVote(clientId: string | undefined): clientId is string {
    return clientId !== undefined && this.electorate.has(clientId);
  }

  /** Records `clientId`'s vote (caller checked `mayVote`) and reports whether it decided. */
  cast(clientId: string, optionId: string): ConsensusProgress {
    this.#votes.set(clientId, optionId);
    const optionTallies = this.optionTallies();
    const votesFor = optionTallies[optionId] ?? 0;
    if (votesFor >= this.quorum) return { decided: true, optionId, votesFor };
    const leading = Math.max(0, ...Object.values(optionTallies));
    return {
      decided: false,
      votesReceived: this.#votes.size,
      votesNeeded: Math.max(1, this.quorum - leading),
      quorum: this.quorum,
      optionTallies,
    };
  }

  /** Whether `clientId` voting `optionId` now would decide the request (nothing is recorded). */
  wouldDecide(clientId: string, optionId: string): boolean {
    let votesFor = 0;
    for (const [voter, choice] of this.#votes) if (voter !== clientId && choice === optionId) votesFor += 1;
    return votesFor + 1 >= this.quorum;
  }

  optionTallies(): Record<string, number> {
    const tallies: Record<string, number> = {};
    for (const optionId of this.#votes.values()) tallies[optionId] = (tallies[optionId] ?? 0) + 1;
    return tallies;
  }
}
