/**
 * The builder's side of a build shared with a counting worker (worker-count.ts): the share of the
 * notes it hands over, and the counts that come back, served to core's build as `CountedElsewhere`
 * — each note taken in its turn, as counted, or as unreadable. When the counting worker fails,
 * the notes it has not counted are read and counted by the builder after all.
 */
import type { CountedElsewhere, CountedNote } from '../core/search/counted-notes';
import { FIELD_COUNT } from '../core/search/inverted-index';
import type { PostedNotes } from './posted-notes';
import type { CountedBatch } from './worker-protocol';

/** The bytes of the notes the builder counts itself, of all: the counting worker takes the rest. */
export const BUILDER_SHARE = 0.46; // why: the builder also adds every note, folds the postings and encodes the part (~a sixth of the work).

/**
 * Where the counting worker's share starts in `order`: after the first notes that hold
 * `share` of the bytes (`sizeOf`; a note of unknown size counts as the mean).
 */
export function shareStart(
	order: readonly string[],
	sizeOf: (path: string) => number | undefined,
	share = BUILDER_SHARE,
): number {
	const sizes = order.map(sizeOf);
	const known = sizes.filter((size): size is number => size !== undefined);
	const mean = known.length === 0 ? 1 : known.reduce((a, b) => a + b, 0) / known.length;
	const total = sizes.reduce<number>((sum, size) => sum + (size ?? mean), 0);
	let bytes = 0;
	for (let i = 0; i < order.length; i++) {
		if (bytes >= total * share) return i;
		bytes += sizes[i] ?? mean;
	}
	return order.length;
}

/** A take waiting for its note. */
interface Taking {
	resolve: (note: CountedNote | null) => void;
	reject: (e: Error) => void;
}

/** A note taken from the counting worker: counted, or the error its read or skip gives. */
type Outcome = { counted: CountedNote } | { error: Error };

/** The counting worker's share as core's build takes it (see the module comment). */
export class CountedShare implements CountedElsewhere {
	private readonly share: Set<string>;
	private readonly names: string[] = [];
	private readonly arrived = new Map<string, Outcome>();
	private readonly waiting = new Map<string, Taking>();
	private failed = false;
	/** Notes taken counted by the counting worker. */
	counted = 0;

	/** The notes `order[from…]` counted apart; `source` learns their skip reasons, and reads them after all if the counting worker fails. */
	constructor(
		order: readonly string[],
		from: number,
		private readonly source: PostedNotes,
	) {
		this.share = new Set(order.slice(from));
		source.readUpTo(from);
	}

	has(path: string): boolean {
		return this.share.has(path);
	}

	take(path: string): Promise<CountedNote | null> {
		const outcome = this.arrived.get(path);
		if (outcome === undefined && this.failed) return Promise.resolve(null);
		return new Promise((resolve, reject) => {
			if (outcome === undefined) return this.waiting.set(path, { resolve, reject });
			this.arrived.delete(path); // held until taken only
			this.hand(outcome, { resolve, reject });
		});
	}

	term(id: number): string {
		const term = this.names[id];
		if (term === undefined) throw new Error(`the counting worker's term ${id} never came`);
		return term;
	}

	/** A batch from the counting worker: its notes' counts (views into its columns), in order. */
	receive(batch: CountedBatch): void {
		for (const term of batch.terms) this.names.push(term);
		this.source.learn(batch.notes);
		let counted = 0;
		batch.notes.forEach((note, i) => {
			const info = batch.infos[i];
			let outcome: Outcome;
			if (info === null || info === undefined)
				outcome = { error: new Error(note.error ?? 'skipped') }; // a skipped note's error is never reported
			else {
				const from = counted === 0 ? 0 : batch.ends[counted - 1]!;
				const to = batch.ends[counted]!;
				const fields = counted * FIELD_COUNT;
				outcome = {
					counted: {
						info,
						terms: batch.termIds.subarray(from, to),
						tfs: batch.tfs.subarray(from, to),
						fieldLen: batch.fieldLen.subarray(fields, fields + FIELD_COUNT),
					},
				};
				counted++;
			}
			this.settle(note.path, outcome);
		});
	}

	/** The counting worker failed: the notes it has not counted are the builder's to read (it asks the main thread for them). */
	fail(): void {
		this.failed = true;
		this.source.readUpTo(Infinity);
		for (const [path, waiting] of this.waiting) {
			this.waiting.delete(path);
			waiting.resolve(null);
		}
	}

	/** Hand `outcome` to the build waiting for `path`, or hold it until taken. */
	private settle(path: string, outcome: Outcome): void {
		const waiting = this.waiting.get(path);
		if (waiting === undefined) {
			this.arrived.set(path, outcome);
			return;
		}
		this.waiting.delete(path);
		this.hand(outcome, waiting);
	}

	/** Resolve a take with `outcome` (counted: one more note the counting worker counted), or reject it with its error. */
	private hand(outcome: Outcome, take: Taking): void {
		if (!('counted' in outcome)) return take.reject(outcome.error);
		this.counted++;
		take.resolve(outcome.counted);
	}
}
