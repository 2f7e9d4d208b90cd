/**
 * The inverted index's pending segment: postings of notes added since the last compaction, kept
 * doc-major (each note's terms together, in id order) so adding a note is an append. Queries scan
 * it linearly, which is why the index compacts it into the frozen segment once it grows.
 */
import { ChunkedU32 } from './chunked-column';

/** Doc-major postings of the notes added since the last compaction (see the module comment). */
export class PendingPostings {
	private readonly terms = new ChunkedU32();
	private readonly tfs = new ChunkedU32();
	/** Where each note's entries start, by id - firstDoc (ids with no entries get an empty range). */
	private starts: number[] = [];
	/** The id of the first note the segment holds (every id from it on lands here). */
	firstDoc = 0;

	/** Postings held. */
	get length(): number {
		return this.terms.length;
	}

	/** Bytes of the typed columns. */
	get byteLength(): number {
		return this.terms.byteLength + this.tfs.byteLength;
	}

	/** Append note `d`'s postings (ids only grow). */
	add(d: number, docTerms: readonly number[], docTfs: readonly number[]): void {
		if (this.starts.length === 0) this.firstDoc = d;
		while (this.firstDoc + this.starts.length < d) this.starts.push(this.terms.length);
		this.starts.push(this.terms.length);
		for (let i = 0; i < docTerms.length; i++) {
			this.terms.push(docTerms[i]!);
			this.tfs.push(docTfs[i]! >>> 0);
		}
	}

	/** Empty the segment; the next note added is `nextDoc` or later. */
	clear(nextDoc: number): void {
		this.terms.clear();
		this.tfs.clear();
		this.starts = [];
		this.firstDoc = nextDoc;
	}

	/** Visit every posting of term `t` as (note id, packed tf), in id order. */
	forTerm(t: number, visit: (d: number, packed: number) => void): void {
		const starts = this.starts;
		let k = 0;
		for (let i = 0; i < this.terms.length; i++) {
			if (this.terms.get(i) !== t) continue;
			while (k + 1 < starts.length && starts[k + 1]! <= i) k++;
			visit(this.firstDoc + k, this.tfs.get(i));
		}
	}

	/** Postings of term `t`, live or not. */
	count(t: number): number {
		let n = 0;
		for (let i = 0; i < this.terms.length; i++) if (this.terms.get(i) === t) n++;
		return n;
	}

	/** The packed tf of term `t` in note `d`, or 0; null when `d` is not in this segment. */
	packedTf(t: number, d: number): number | null {
		if (d < this.firstDoc || this.starts.length === 0) return null;
		const k = d - this.firstDoc;
		if (k >= this.starts.length) return 0;
		const end = k + 1 < this.starts.length ? this.starts[k + 1]! : this.terms.length;
		for (let i = this.starts[k]!; i < end; i++) if (this.terms.get(i) === t) return this.tfs.get(i);
		return 0;
	}

	/**
	 * Visit each live note's postings as (note id, term, packed tf), note by note; yields after about
	 * `step` postings of work so a compaction can pause.
	 */
	*eachLive(
		alive: Uint8Array,
		step: number,
		visit: (d: number, t: number, packed: number) => void,
	): Generator<void, void, void> {
		let work = 0;
		const notes = this.starts.length;
		for (let k = 0; k < notes; k++) {
			const d = this.firstDoc + k;
			if (alive[d] !== 1) continue;
			const end = k + 1 < notes ? this.starts[k + 1]! : this.terms.length;
			for (let i = this.starts[k]!; i < end; i++) visit(d, this.terms.get(i), this.tfs.get(i));
			work += end - this.starts[k]! + 1;
			if (work >= step) {
				work = 0;
				yield;
			}
		}
	}
}
