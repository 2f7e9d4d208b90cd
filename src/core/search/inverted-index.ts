/**
 * The in-memory inverted index: one posting per (term, note), eight bytes each — the note id
 * and its term frequencies in the six fields packed into one 32-bit word (5 bits per field).
 *
 * Layout: a frozen CSR segment (term → slice of `docs`/`tfs`) plus a small doc-major pending
 * segment for notes added since the last freeze. Notes are never updated in place: a change
 * is a removal (a tombstone) plus an addition under a fresh id, so postings stay sorted by id
 * and a change costs one note's tokenization. `compact()` folds pending postings and drops
 * tombstones; it runs after a bulk build and when the pending segment grows large.
 */
import type { CachedMetadata } from '../metadata';
import type { CountedNote, ForeignTermIds } from './counted-notes';
import { extractNote, type DocInfo } from './extract';
import { DocTable } from './doc-table';
import { FrozenPostings, mergePostingsSteps } from './frozen-postings';
import { PendingPostings } from './pending-postings';
import { exportDenseSteps, type InvertedIndexState, type SavedIndexState } from './index-state';
import { FIELD_NAMES, type SearchSettings } from './settings';
import { NoteTermCounter } from './note-terms';
import { grow, UNREAD_ONLY } from './packed-tf';
import { TermDictionary } from './term-dictionary';
import { drain, WorkMeter } from '../steps';
import { fillNormsSteps, postingScore } from './bm25';

export { fieldMaskOf, fieldTf } from './packed-tf';

/** Saved notes taken in per step of `fromSavedSteps`. */
const RESTORE_STEP_NOTES = 4096; // why: about 2 ms of a main thread on a quiet machine.

/** Number of indexed fields. */
export const FIELD_COUNT = FIELD_NAMES.length;
/** Removals that always wait for a compaction; beyond this, one per 16 live notes triggers it (cheap on small vaults, rare on large ones). */
const MIN_REMOVALS_BEFORE_COMPACT = 32;
/** Postings a compaction step handles before it may pause (a save's `exportStateSteps`). */
const COMPACT_STEP = 1 << 16; // why: ~1 ms of work, so a slice overshoots its budget by about that.
/** Pending postings above which a search first compacts: scanning them linearly per query would cost more. */
const PENDING_COMPACT_AT = 200_000; // why: a linear scan of 200k entries is ~0.3 ms, the p50 budget's margin.
/** Postings a ranking scores between two looks at whether to pause (forEachScoredSteps; fewer when its meter's step is smaller). */
const SCORE_CHUNK = 1024;

/** A note to index: its vault path, full text and Obsidian metadata. */
export interface NoteInput {
	path: string;
	text: string;
	metadata: CachedMetadata | null;
}

/**
 * The inverted index over notes. Build it with `SearchIndex.build` (from a NoteSource, async,
 * in chunks) or `new SearchIndex(settings)` + `upsert`; keep it current with `upsert`,
 * `remove` and `rename`.
 */
export class InvertedIndex {
	/** Term ⇄ id. */
	readonly terms: TermDictionary;

	/** Frozen CSR segment (frozen-postings.ts). */
	private frozen = FrozenPostings.empty();

	/** Pending doc-major segment (pending-postings.ts). */
	private readonly pending = new PendingPostings();

	/** Per-note records, by id; null for removed ids. */
	readonly docs: DocTable;
	/** Vault path → live note id. */
	readonly pathToDoc = new Map<string, number>();
	private alive = new Uint8Array(16);
	/** Field lengths in terms, doc-major (FIELD_COUNT per note). */
	private fieldLen: Uint32Array<ArrayBufferLike> = new Uint32Array(16 * FIELD_COUNT);
	/** Per-field length normalisation 1 / (1 - b + b·len/avg), doc-major; rebuilt lazily. */
	private norm = new Float32Array(0);
	private normDirty = true;
	private readonly totalLen = new Float64Array(FIELD_COUNT);
	private live = 0;
	/** A compaction's steps have started and not returned (`needsCompaction` waits for them). */
	private compacting = false;
	/** Notes removed since the last compaction: their postings are still stored (skipped when read). */
	private removedSinceCompact = 0;
	/** While removed notes' postings are stored: term → its live document frequency, counted when first asked (cleared by every change). */
	private readonly liveDf = new Map<number, number>();
	/** Bumped by every change a search reads (a note added or removed, a compaction): a ranking paused in slices starts again. */
	private revisionCount = 0;

	/** Counts one note's terms (the scratch of indexing, and the word cache). */
	private counter: NoteTermCounter;
	/** A note counted apart's terms as this index's ids (scratch of `addCountedApart`). */
	private readonly apartTerms: number[] = [];

	/** Keep abstracts and forward links per note (false when a NoteSource can give them back on demand). */
	keepDerived = true;

	/** An empty index, or one over a saved part's columns (`fromSaved`). */
	constructor(
		readonly settings: SearchSettings,
		saved: SavedIndexState | null = null,
	) {
		this.terms = new TermDictionary(saved?.terms ?? null);
		this.docs = new DocTable(saved?.docs ?? null);
		// No scratch provisioned for a saved dictionary's terms: a restore that re-indexes nothing needs none, and
		// three arrays the size of 210k terms held a main thread ~10 ms as the index came in (they grow on first use).
		this.counter = new NoteTermCounter(this.terms);
	}

	/** Live notes. */
	get size(): number {
		return this.live;
	}

	/** Total ids ever assigned (live or removed): the size of per-note scratch arrays. */
	get idSpace(): number {
		return this.docs.length;
	}

	/** Changes so far to what a search reads: a ranking paused in slices compares it to know the index changed meanwhile. */
	get revision(): number {
		return this.revisionCount;
	}

	/** Whether id `d` is live. */
	isAlive(d: number): boolean {
		return this.alive[d] === 1;
	}

	/** Postings held in the frozen and pending segments. */
	get postingCount(): number {
		return this.frozen.length + this.pending.length;
	}

	/** Note `d`'s record, or null when removed. */
	doc(d: number): DocInfo | null {
		return this.docs.get(d);
	}

	/** Add (or replace) a note; its id. Milliseconds for a typical note, in one synchronous pass. */
	upsert(note: NoteInput): number {
		return this.addCounted(note.path, this.count(note));
	}

	/**
	 * Extract and count a note's terms for `addCounted`; its record. The index is unchanged (new terms
	 * get ids, nothing else), so a count stopped by TermDictionary.decodeAtMost can simply run again.
	 */
	count(note: NoteInput): DocInfo {
		const { info, fields } = extractNote(note.path, note.text, note.metadata, this.settings, this.keepDerived);
		this.counter.count(fields);
		return info;
	}

	/** Add (or replace) the note at `path` that `count` just counted, with its record `info`; its id. */
	addCounted(path: string, info: DocInfo): number {
		const { terms, tfs, fieldLen } = this.counter;
		return this.addPostings(path, { info, terms, tfs, fieldLen });
	}

	/** Add (or replace) a note counted apart (counted-notes.ts), its terms given this index's ids by `ids`; its id. */
	addCountedApart(path: string, note: CountedNote, ids: ForeignTermIds): number {
		const terms = this.apartTerms;
		terms.length = 0;
		for (let i = 0; i < note.terms.length; i++) terms.push(ids.id(note.terms[i]!));
		return this.addPostings(path, { ...note, terms });
	}

	/** Add (or replace) note `path`: its record, terms (this index's ids), packed frequencies and field lengths. */
	private addPostings(path: string, { info, terms, tfs, fieldLen }: CountedNote): number {
		const old = this.pathToDoc.get(path);
		if (old !== undefined) this.removeId(old);
		const d = this.docs.push(info);
		this.pathToDoc.set(path, d);
		this.alive = grow(this.alive, d + 1, (n) => new Uint8Array(n));
		this.alive[d] = 1;
		this.fieldLen = grow(this.fieldLen, (d + 1) * FIELD_COUNT, (n) => new Uint32Array(n));
		this.live++;
		this.revisionCount++;
		this.normDirty = true;
		for (let f = 0; f < FIELD_COUNT; f++) {
			this.fieldLen[d * FIELD_COUNT + f] = fieldLen[f]!;
			this.totalLen[f]! += fieldLen[f]!;
		}
		this.pending.add(d, terms, tfs);
		this.liveDf.clear(); // The note's terms now count: live frequencies counted before are stale.
		return d;
	}

	/** Remove a note by path; false when it was not indexed. */
	remove(path: string): boolean {
		const d = this.pathToDoc.get(path);
		if (d === undefined) return false;
		this.removeId(d);
		return true;
	}

	private removeId(d: number): void {
		if (this.alive[d] !== 1) return;
		this.alive[d] = 0;
		this.live--;
		this.revisionCount++;
		this.removedSinceCompact++;
		this.liveDf.clear();
		const path = this.docs.path(d);
		if (path !== null) this.pathToDoc.delete(path);
		this.docs.drop(d);
		for (let f = 0; f < FIELD_COUNT; f++) this.totalLen[f]! -= this.fieldLen[d * FIELD_COUNT + f]!;
		this.normDirty = true;
	}

	/** Whether removed notes' postings are still stored (any removal since the last compaction); they never count, see `docFreq`. */
	get hasStalePostings(): boolean {
		return this.removedSinceCompact > 0;
	}

	/**
	 * Whether to compact before the next search: the pending segment is large, or enough notes were
	 * removed (every edit is a removal plus an addition) that their stale postings would distort
	 * document frequencies — a small vault edited many times must not drift.
	 */
	get needsCompaction(): boolean {
		if (this.compacting) return false; // a compaction in a host's slices is under way: searches read pending meanwhile
		return (
			this.pending.length > PENDING_COMPACT_AT ||
			this.removedSinceCompact > Math.max(MIN_REMOVALS_BEFORE_COMPACT, this.live >> 4)
		);
	}

	/**
	 * Fold the pending segment into the frozen one and drop removed notes' postings: a
	 * counting sort, O(postings), in one pass (a build and a search compact so). Ids are kept
	 * (removed ids stay holes).
	 */
	compact(): void {
		drain(this.compactSteps());
	}

	/**
	 * The steps of a compaction: it pauses (yields) after about COMPACT_STEP postings of work. A
	 * save's encoding (`exportStateSteps`) and a host folding edits in the background run them in
	 * slices (at 50k notes a pass of over a second on a host's main thread); everything else drains
	 * them. Notes may be added and removed in the pauses: it folds what was pending when it began
	 * (later notes stay pending, notes removed meanwhile stay stale). One at a time per index.
	 */
	*compactSteps(): Generator<void, void, void> {
		if (this.compacting) throw new Error('a compaction of this index is already under way');
		this.compacting = true;
		try {
			yield* this.foldSteps();
		} finally {
			this.compacting = false;
		}
	}

	/** The work of `compactSteps`. */
	private *foldSteps(): Generator<void, void, void> {
		const termCount = this.terms.size;
		// Already compact (a build ends with a compaction): a copy of every posting would change
		// nothing, and a save's export held it beside the index (~90 MB at 50k notes).
		if (this.pending.length === 0 && this.removedSinceCompact === 0 && this.frozen.terms === termCount) {
			this.pending.clear(this.docs.length);
			return;
		}
		// What is folded is fixed now: notes added or removed in the pauses stay pending or stale.
		const upTo = this.pending.mark();
		const alive = this.alive.slice(0, this.docs.length);
		const removed = this.removedSinceCompact;
		const frozen = yield* this.frozen.columnsSteps();
		const columns = yield* mergePostingsSteps(frozen, this.pending, alive, termCount, COMPACT_STEP, upTo);
		this.frozen = new FrozenPostings(columns);
		this.pending.dropTo(upTo, this.docs.length);
		this.removedSinceCompact -= removed;
		this.revisionCount++;
	}

	/** Release build scratch that only indexing needs (after a bulk build). */
	trimScratch(): void {
		this.counter.trim();
	}

	/** Recompute per-field length normalisation factors 1 / (1 - b + b·len/avg) when lengths changed (every note's: 10–45 ms at 50k). */
	ensureNorm(): void {
		drain(this.ensureNormSteps());
	}

	/**
	 * `ensureNorm` as steps (bm25.ts). A change to the index during a pause makes it start again,
	 * then in one go: edits applied between every pause (a long reconcile) never starve it.
	 */
	*ensureNormSteps(): Generator<void, void, void> {
		let again = false;
		while (this.normDirty || this.norm.length < this.docs.length * FIELD_COUNT) {
			const revision = this.revisionCount;
			const notes = this.docs.length;
			if (this.norm.length < notes * FIELD_COUNT)
				this.norm = new Float32Array(Math.ceil(Math.max(16, notes) * 1.25) * FIELD_COUNT);
			const { fieldLen, totalLen, live } = this;
			const input = { fieldLen, notes, totalLen, live, fieldB: this.settings.fieldB };
			const steps = fillNormsSteps(this.norm, input, () => this.revisionCount !== revision);
			if (again ? drain(steps) : yield* steps) this.normDirty = false;
			again = true;
		}
	}

	/**
	 * Document frequency of a term: the live notes that hold it, exactly what a fresh build counts.
	 * Removed notes' postings stay stored until a compaction, so while there are any, the live ones
	 * are counted (once per term until the next change): O(the term's postings), which a query
	 * reads anyway — where folding them away is O(every posting), 0.7 s at 50k notes, after each edit.
	 */
	docFreq(t: number): number {
		if (this.removedSinceCompact === 0) return this.frozen.count(t) + this.pending.count(t);
		let df = this.liveDf.get(t);
		if (df === undefined) {
			df = this.countLive(t);
			this.liveDf.set(t, df);
		}
		return df;
	}

	/** The live notes holding term `t`, postings of removed notes skipped. */
	private countLive(t: number): number {
		const alive = this.alive;
		let df = 0;
		if (t < this.frozen.terms) {
			const [docs] = this.frozen.slice(t);
			for (let i = 0; i < docs.length; i++) if (alive[docs[i]!] === 1) df++;
		}
		this.pending.forTerm(t, (d) => {
			if (alive[d] === 1) df++;
		});
		return df;
	}

	/** BM25 idf of a term id. */
	idf(t: number): number {
		const df = this.docFreq(t);
		return Math.log(1 + (this.live - df + 0.5) / (df + 0.5));
	}

	/**
	 * Visit every live posting of term `t` with its field-weighted BM25 score. `allowed` (by id) skips
	 * filtered-out notes. Calls `visit(doc, score, packedTf)`.
	 */
	forEachScored(
		t: number,
		allowed: Uint8Array | null,
		visit: (d: number, score: number, packed: number) => void,
	): void {
		drain(this.forEachScoredSteps(t, allowed, visit, new WorkMeter(Infinity)));
	}

	/**
	 * `forEachScored` as steps: `meter` counts the postings read (a ranking's terms share one) and
	 * says when to pause; false when the index changed during a pause (the visits so far are stale).
	 */
	*forEachScoredSteps(
		t: number,
		allowed: Uint8Array | null,
		visit: (d: number, score: number, packed: number) => void,
		meter: WorkMeter,
	): Generator<void, boolean, void> {
		this.ensureNorm();
		const revision = this.revisionCount;
		const score = postingScore(this.settings, this.norm, this.idf(t));
		const alive = this.alive;
		if (t < this.frozen.terms) {
			const [docs, tfs] = this.frozen.slice(t);
			const chunk = Math.min(SCORE_CHUNK, meter.step);
			for (let from = 0; from < docs.length; from += chunk) {
				const to = Math.min(docs.length, from + chunk);
				for (let i = from; i < to; i++) {
					const d = docs[i]!;
					if (alive[d] !== 1 || (allowed !== null && allowed[d] !== 1)) continue;
					const packed = tfs[i]!;
					visit(d, score(d, packed), packed);
				}
				if (meter.add(to - from)) {
					yield;
					if (this.revisionCount !== revision) return false;
				}
			}
		}
		this.pending.forTerm(t, (d, packed) => {
			if (alive[d] === 1 && (allowed === null || allowed[d] === 1)) visit(d, score(d, packed), packed);
		});
		return true;
	}

	/** Whether a live note holds term `t` in prose (not only in code, an address or a comment: packed-tf.ts `UNREAD_ONLY`). */
	heldInProse(t: number): boolean {
		const alive = this.alive;
		if (t < this.frozen.terms) {
			const [docs, tfs] = this.frozen.slice(t);
			for (let i = 0; i < docs.length; i++)
				if (alive[docs[i]!] === 1 && (tfs[i]! & UNREAD_ONLY) === 0) return true;
		}
		let found = false;
		this.pending.forTerm(t, (d, packed) => {
			if (alive[d] === 1 && (packed & UNREAD_ONLY) === 0) found = true;
		});
		return found;
	}

	/** The packed tf word of term `t` in note `d`, or 0 (binary search in the frozen slice). */
	packedTf(t: number, d: number): number {
		const pending = this.pending.packedTf(t, d);
		if (pending !== null) return pending;
		if (t >= this.frozen.terms) return 0;
		const [docs, tfs] = this.frozen.slice(t);
		let lo = 0;
		let hi = docs.length - 1;
		while (lo <= hi) {
			const mid = (lo + hi) >>> 1;
			const v = docs[mid]!;
			if (v === d) return tfs[mid]!;
			if (v < d) lo = mid + 1;
			else hi = mid - 1;
		}
		return 0;
	}

	/**
	 * Up to `max` terms that start with `prefix` (the prefix itself excluded), most frequent
	 * first; ties in dictionary order (term-dictionary.ts).
	 */
	termsWithPrefix(prefix: string, max: number): string[] {
		return this.terms
			.withPrefix(prefix)
			.map((id) => ({ id, df: this.docFreq(id) }))
			.filter((x) => x.df > 0) // Terms only removed notes held are gone, as in a fresh build.
			.sort((a, b) => b.df - a.df)
			.slice(0, max)
			.map((x) => this.terms.term(x.id));
	}

	/**
	 * The id of a term, or -1 when no note has it — also when only removed notes held it (its
	 * postings gone by compaction), so an edited index treats the word as a fresh build would.
	 */
	lookup(term: string): number {
		const t = this.terms.id(term);
		if (t === undefined) return -1;
		return this.docFreq(t) === 0 ? -1 : t;
	}

	/** The index as columns to persist (index-state.ts): compacted, ids dense, unused terms dropped. */
	exportState(): InvertedIndexState {
		return drain(this.exportStateSteps());
	}

	/**
	 * `exportState` as steps (a host's main thread runs them in slices). The index must not change
	 * until they return, nor while the state is read (the engine holds its changes back meanwhile):
	 * the state shares the index's posting columns when nothing needs squeezing, and its notes'
	 * records are read from the index as asked (`DocTable.readOnce`). Read it, never write it.
	 */
	*exportStateSteps(): Generator<void, InvertedIndexState, void> {
		yield* this.compactSteps();
		// Each read of a restored index's saved parts in steps: at 50k notes, in one go, they held a main thread 0.35–1.4 s each.
		const termList = yield* this.terms.listSteps();
		const columns = yield* this.frozen.columnsSteps();
		return yield* exportDenseSteps({ termList, ...columns, docs: this.docs.readOnce(), fieldLen: this.fieldLen });
	}

	/** An index over a saved part (as `exportState` gave it): read per term and per note as queries ask; the caller vouches for its consistency. */
	static fromSaved(settings: SearchSettings, saved: SavedIndexState): InvertedIndex {
		return drain(InvertedIndex.fromSavedSteps(settings, saved));
	}

	/** `fromSaved` in steps of RESTORE_STEP_NOTES notes (the notes' path map at 50k notes held a main thread ~25 ms in one go). */
	static *fromSavedSteps(settings: SearchSettings, saved: SavedIndexState): Generator<void, InvertedIndex, void> {
		const index = new InvertedIndex(settings, saved);
		index.frozen = new FrozenPostings(null, saved.postings);
		const n = saved.docs.count;
		const fieldLen = saved.fieldLen;
		for (let d = 0; d < n; d++) {
			index.pathToDoc.set(saved.docs.path(d), d);
			for (let f = 0; f < FIELD_COUNT; f++) index.totalLen[f]! += fieldLen[d * FIELD_COUNT + f]!;
			if ((d + 1) % RESTORE_STEP_NOTES === 0) yield;
		}
		index.alive = new Uint8Array(Math.max(16, n)).fill(1, 0, n);
		index.fieldLen = fieldLen;
		index.live = n;
		index.pending.clear(n);
		index.trimScratch();
		return index;
	}

	/** Approximate bytes held by the typed arrays (the dictionary and records are not counted). */
	arrayBytes(): number {
		return (
			this.frozen.bytes +
			this.pending.byteLength +
			this.alive.byteLength +
			this.fieldLen.byteLength +
			this.norm.byteLength +
			this.counter.byteLength
		);
	}
}
