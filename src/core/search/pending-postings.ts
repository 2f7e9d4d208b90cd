/**
 * The inverted index's pending segment: postings of notes added since the last compaction, kept
 * doc-major (each note's terms together, in id order) so adding a note is an append. Queries scan
 * it linearly, which is why the index compacts it into the frozen segment once it grows.
 */
import { ChunkedU32 } from './chunked-column';

/** A point in the pending segment: its notes and entries then (`PendingPostings.mark`). */
export interface PendingMark {
	notes: number;
	entries: number;
}

/** Doc-major postings of the notes added since the last compaction (see the module comment). */
export class PendingPostings {
	private terms = new ChunkedU32();
	private tfs = new ChunkedU32();
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
	add(d: number, docTerms: ArrayLike<number>, docTfs: ArrayLike<number>): void {
		if (this.starts.length === 0) this.firstDoc = d;
		while (this.firstDoc + this.starts.length < d) this.starts.push(this.terms.length);
		this.starts.push(this.terms.length);
		for (let i = 0; i < docTerms.length; i++) {
			this.terms.push(docTerms[i]!);
			this.tfs.push(docTfs[i]! >>> 0);
		}
	}

	/** Notes the segment holds entries for (ids `firstDoc` on), and where its entries end: what a compaction folds. */
	mark(): PendingMark {
		return { notes: this.starts.length, entries: this.terms.length };
	}

	/**
	 * Drop the entries up to `mark` (a compaction folded them), keeping the notes added since: a
	 * compaction in a host's steps lets changes land in its pauses.
	 */
	dropTo(mark: PendingMark, nextDoc: number): void {
		if (mark.entries === this.terms.length) {
			this.clear(nextDoc);
			return;
		}
		const terms = new ChunkedU32();
		const tfs = new ChunkedU32();
		for (let i = mark.entries; i < this.terms.length; i++) {
			terms.push(this.terms.get(i));
			tfs.push(this.tfs.get(i));
		}
		this.terms = terms;
		this.tfs = tfs;
		this.starts = this.starts.slice(mark.notes).map((start) => start - mark.entries);
		this.firstDoc += mark.notes;
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
	 * Visit each live note's postings as (note id, term, packed tf), note by note, up to `upTo`
	 * (what a compaction folds; notes added in its pauses stay); yields after about `step` postings
	 * of work so a compaction can pause.
	 */
	*eachLive(
		alive: Uint8Array,
		step: number,
		visit: (d: number, t: number, packed: number) => void,
		upTo: PendingMark = this.mark(),
	): Generator<void, void, void> {
		let work = 0;
		const notes = upTo.notes;
		for (let k = 0; k < notes; k++) {
			const d = this.firstDoc + k;
			if (alive[d] !== 1) continue;
			const end = k + 1 < notes ? this.starts[k + 1]! : upTo.entries;
			for (let i = this.starts[k]!; i < end; i++) visit(d, this.terms.get(i), this.tfs.get(i));
			work += end - this.starts[k]! + 1;
			if (work >= step) {
				work = 0;
				yield;
			}
		}
	}
}
