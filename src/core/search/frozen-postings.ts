/**
 * The inverted index's frozen segment: term t's postings (note ids ascending, packed tf words) in
 * CSR columns. Built in memory by compaction, or restored from a saved part whose columns are read
 * one term's slice at a time — a warm search reads the postings of its query's terms only.
 */
import type { PendingMark, PendingPostings } from './pending-postings';
import { drain } from '../steps';

/** CSR columns: term t's postings are [termStart[t], termStart[t+1]). */
export interface PostingColumns {
	termStart: Uint32Array;
	postDocs: Uint32Array;
	postTfs: Uint32Array;
}

/** Saved postings (search-part.ts), each read checked. */
export interface SavedPostings {
	/** Terms covered. */
	readonly terms: number;
	/** Postings in all. */
	readonly total: number;
	/** How many postings term t has (its slice's length, without reading the slice). */
	count(t: number): number;
	/** Term t's note ids and tf words. */
	slice(t: number): [docs: Uint32Array, tfs: Uint32Array];
	/** The whole columns, read and checked in steps (a save of a restored index reads them all: ~1 s at 50k notes). */
	columnsSteps(): Generator<void, PostingColumns, void>;
}

/** The frozen segment (see the module comment). */
export class FrozenPostings {
	private readonly slices = new Map<number, [Uint32Array, Uint32Array]>();

	/** Columns in memory, or saved ones read per term. */
	constructor(
		private arrays: PostingColumns | null,
		private saved: SavedPostings | null = null,
	) {}

	/** An empty segment. */
	static empty(): FrozenPostings {
		return new FrozenPostings({
			termStart: new Uint32Array(1),
			postDocs: new Uint32Array(0),
			postTfs: new Uint32Array(0),
		});
	}

	/** Terms covered (ids below this have a slice). */
	get terms(): number {
		return this.arrays !== null ? this.arrays.termStart.length - 1 : this.saved!.terms;
	}

	/** Postings in all. */
	get length(): number {
		return this.arrays !== null ? this.arrays.postDocs.length : this.saved!.total;
	}

	/** Term t's note ids and tf words (empty beyond the covered terms). */
	slice(t: number): [docs: Uint32Array, tfs: Uint32Array] {
		if (t >= this.terms) return [new Uint32Array(0), new Uint32Array(0)];
		if (this.arrays !== null) {
			const { termStart, postDocs, postTfs } = this.arrays;
			return [
				postDocs.subarray(termStart[t], termStart[t + 1]),
				postTfs.subarray(termStart[t], termStart[t + 1]),
			];
		}
		let slice = this.slices.get(t);
		if (slice === undefined) {
			slice = this.saved!.slice(t);
			this.slices.set(t, slice);
		}
		return slice;
	}

	/** How many postings term t has in this segment. */
	count(t: number): number {
		if (t >= this.terms) return 0;
		if (this.arrays !== null) return this.arrays.termStart[t + 1]! - this.arrays.termStart[t]!;
		return this.slices.get(t)?.[0].length ?? this.saved!.count(t);
	}

	/** The whole columns (reads saved ones once). */
	columns(): PostingColumns {
		return drain(this.columnsSteps());
	}

	/** `columns` in steps: saved columns are read and checked a piece at a time. */
	*columnsSteps(): Generator<void, PostingColumns, void> {
		if (this.arrays === null) {
			const arrays = yield* this.saved!.columnsSteps();
			// Another caller may have read them during a pause: the first read stands.
			if (this.arrays === null) {
				this.arrays = arrays;
				this.saved = null;
				this.slices.clear();
			}
		}
		return this.arrays;
	}

	/** Bytes held in memory. */
	get bytes(): number {
		if (this.arrays === null) return 0;
		return this.arrays.termStart.byteLength + this.arrays.postDocs.byteLength + this.arrays.postTfs.byteLength;
	}
}

/**
 * The postings of `frozen` and of `pending` up to `upTo` whose notes are `alive`, as one CSR
 * segment over `termCount` terms: a counting sort, O(postings), pausing after about `step`
 * postings of work (InvertedIndex.compact). Ids are kept (removed ids stay holes). `alive` must
 * not change until it returns (the index hands it a copy: notes change in its pauses).
 */
export function* mergePostingsSteps(
	{ termStart, postDocs, postTfs }: PostingColumns,
	pending: PendingPostings,
	alive: Uint8Array,
	termCount: number,
	step: number,
	upTo: PendingMark = pending.mark(),
): Generator<void, PostingColumns, void> {
	let work = 0;
	const counts = new Uint32Array(termCount + 1);
	const frozenTerms = termStart.length - 1;
	for (let t = 0; t < frozenTerms; t++) {
		let c = 0;
		for (let i = termStart[t]!; i < termStart[t + 1]!; i++) if (alive[postDocs[i]!] === 1) c++;
		counts[t] = c;
		work += termStart[t + 1]! - termStart[t]! + 1;
		if (work >= step) {
			work = 0;
			yield;
		}
	}
	yield* pending.eachLive(alive, step, (_d, t) => counts[t]!++, upTo);
	const start = new Uint32Array(termCount + 1);
	for (let t = 0; t < termCount; t++) start[t + 1] = start[t]! + counts[t]!;
	const total = start[termCount]!;
	const docs = new Uint32Array(total);
	const tfs = new Uint32Array(total);
	// A fresh array's pages are mapped on first write (~5 ms a MB measured): the scatter below
	// would fault them in at random, 100–200 ms a step at 50k notes. Touched in order, a step at a time.
	for (let i = 0; i < total; i += step) {
		docs.fill(0, i, i + step);
		tfs.fill(0, i, i + step);
		yield;
	}
	const cursor = start.slice(0, termCount);
	for (let t = 0; t < frozenTerms; t++) {
		let w = cursor[t]!;
		for (let i = termStart[t]!; i < termStart[t + 1]!; i++) {
			const d = postDocs[i]!;
			if (alive[d] !== 1) continue;
			docs[w] = d;
			tfs[w] = postTfs[i]!;
			w++;
		}
		cursor[t] = w;
		work += termStart[t + 1]! - termStart[t]! + 1;
		if (work >= step) {
			work = 0;
			yield;
		}
	}
	yield* pending.eachLive(
		alive,
		step,
		(d, t, packed) => {
			const w = cursor[t]!++;
			docs[w] = d;
			tfs[w] = packed;
		},
		upTo,
	);
	return { termStart: start, postDocs: docs, postTfs: tfs };
}
