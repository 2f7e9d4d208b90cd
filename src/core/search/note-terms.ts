/**
 * One note's terms and their packed per-field frequencies, counted in one synchronous pass (a
 * host that must keep its main thread free builds in a worker, or pauses between notes). The
 * counts land in this counter's scratch (`terms`, `tfs`, `fieldLen`), valid until the next count.
 */
import { pieceText, type FieldTexts } from './extract';
import { FIELD_TF_MASK, TF_BITS, TF_MAX, UNREAD_ONLY } from './packed-tf';
import { FIELD_NAMES } from './settings';
import type { TermDictionary } from './term-dictionary';
import { normalizeText, wordTerms } from './tokenize';
import { HASH_START, hashEnd, hashUnit, WordCache } from './word-cache';
import { ASCII_WORD, wordAt } from './words';

/** Words longer than this are not cached (CJK sentences, URLs): they rarely repeat. */
const CACHED_WORD_MAX = 64; // why: covers repeated words and the short phrase runs of Thai/Khmer (costly Segmenter calls); longer runs rarely repeat.
const BULK_CACHE_LIMIT = 1_000_000; // why: during a bulk build the word → term-ids cache is the main speed-up; ~80 MB worst case, dropped after.
const LIVE_CACHE_LIMIT = 20_000; // why: after the build, updates touch one note at a time; a small cache keeps memory flat.
const STAMP_MAX = 0x7fffffff; // why: the stamps live in an Int32Array.
/** Characters of a note's text normalised at a time: an NFKC copy of a step never lives long enough to be promoted. */
const NORMALIZE_STEP = 4096; // why: a few KB is young-generation garbage; a whole long note's copy could be MBs.
/**
 * The end of the step of `text` that starts at `from`: just after the last line break within
 * NORMALIZE_STEP characters, else just after the next one, else the text's end. No word spans a
 * line break and NFKC never composes across one, so steps tokenize as the whole text would.
 */
function stepEnd(text: string, from: number): number {
	if (text.length - from <= NORMALIZE_STEP) return text.length;
	const back = text.lastIndexOf('\n', from + NORMALIZE_STEP - 1);
	if (back >= from) return back + 1;
	const next = text.indexOf('\n', from + NORMALIZE_STEP);
	return next < 0 ? text.length : next + 1;
}

/** Counts the terms of one note at a time, adding new terms to the dictionary (see the module comment). */
export class NoteTermCounter {
	/** The counted note's term ids, in order of first occurrence. */
	readonly terms: number[] = [];
	/** Packed field frequencies (packed-tf.ts), parallel to `terms`; flagged UNREAD_ONLY when the note holds the term in no prose piece. */
	readonly tfs: number[] = [];
	/** Terms per field of the counted note. */
	readonly fieldLen = new Uint32Array(FIELD_NAMES.length);
	/** Per term id: the stamp of the last count that saw it, and its slot in `terms` there. */
	private lastSeen: Int32Array;
	private slotOf: Uint32Array;
	/** Per term id: the stamp of the last count that saw it in prose. */
	private proseSeen: Int32Array;
	private stamp = 0;
	/** Raw word → its term id(s): tokenization, folding, stemming and dictionary lookup done once per distinct word. */
	private wordCache = new WordCache<number | number[]>();
	private cacheLimit = BULK_CACHE_LIMIT;

	/** A counter adding to `dictionary`; `capacity` term ids are provisioned up front (a restored dictionary's size). */
	constructor(
		private readonly dictionary: TermDictionary,
		capacity = 1024,
	) {
		this.lastSeen = new Int32Array(Math.max(1024, capacity)).fill(-1);
		this.slotOf = new Uint32Array(this.lastSeen.length);
		this.proseSeen = new Int32Array(this.lastSeen.length).fill(-1);
	}

	/** Bytes held by the per-term scratch arrays. */
	get byteLength(): number {
		return this.lastSeen.byteLength + this.slotOf.byteLength + this.proseSeen.byteLength;
	}

	/** After a bulk build: drop the large word cache and keep a small one for single-note updates. */
	trim(): void {
		this.wordCache = new WordCache();
		this.cacheLimit = LIVE_CACHE_LIMIT;
	}

	private termId(term: string): number {
		const id = this.dictionary.add(term);
		if (id >= this.lastSeen.length) {
			let n = this.lastSeen.length * 2;
			while (n <= id) n *= 2;
			const ls = new Int32Array(n).fill(-1);
			ls.set(this.lastSeen);
			this.lastSeen = ls;
			const so = new Uint32Array(n);
			so.set(this.slotOf);
			this.slotOf = so;
			const ps = new Int32Array(n).fill(-1);
			ps.set(this.proseSeen);
			this.proseSeen = ps;
		}
		return id;
	}

	/** A fresh stamp for one count (so `lastSeen` needs no clearing between notes). */
	private nextStamp(): number {
		if (this.stamp === STAMP_MAX) {
			this.lastSeen.fill(-1);
			this.proseSeen.fill(-1);
			this.stamp = 0;
		}
		return ++this.stamp;
	}

	/** Count the terms of a note's field texts (in `FIELD_NAMES` order) into this counter's scratch. */
	count(fields: FieldTexts): void {
		const stamp = this.nextStamp();
		const terms = this.terms;
		const tfs = this.tfs;
		terms.length = 0;
		tfs.length = 0;
		for (let f = 0; f < fields.length; f++) {
			const shift = f * TF_BITS;
			let len = 0;
			let prose = true;
			const add = (t: number): void => {
				len++;
				if (prose) this.proseSeen[t] = stamp;
				if (this.lastSeen[t] !== stamp) {
					this.lastSeen[t] = stamp;
					this.slotOf[t] = terms.length;
					terms.push(t);
					tfs.push(1 << shift);
					return;
				}
				const slot = this.slotOf[t]!;
				if (((tfs[slot]! >>> shift) & FIELD_TF_MASK) < TF_MAX) tfs[slot]! += 1 << shift;
			};
			const addTerm = (term: string): void => add(this.termId(term));
			for (const part of fields[f]!) {
				const piece = pieceText(part);
				prose = piece === part;
				for (let from = 0; from < piece.length;) {
					const end = stepEnd(piece, from);
					// A step's text is normalised on its own: a copy (when NFKC changes it) lives one step, never promoted.
					this.countWords(normalizeText(piece.slice(from, end)), add, addTerm);
					from = end;
				}
			}
			this.fieldLen[f] = len;
		}
		for (let i = 0; i < terms.length; i++) if (this.proseSeen[terms[i]!] !== stamp) tfs[i]! |= UNREAD_ONLY;
	}

	/**
	 * Count the words of `text` (words.ts's WordCursor, inlined: an ASCII unit's class is one table
	 * read, and a word is hashed as it is scanned, so a cached word's units are read twice in all —
	 * once here, once compared with the cache's key — and no string is made for it).
	 */
	private countWords(text: string, add: (t: number) => void, addTerm: (term: string) => void): void {
		const n = text.length;
		let i = 0;
		for (;;) {
			for (let c = text.charCodeAt(i); i < n && (c < 0x80 ? ASCII_WORD[c] === 0 : !wordAt(text, i));)
				c = text.charCodeAt(++i);
			if (i >= n) return;
			const start = i;
			let h = HASH_START;
			for (;;) {
				for (; i < n; i++) {
					const c = text.charCodeAt(i);
					if (c < 0x80 ? ASCII_WORD[c] === 0 : !wordAt(text, i)) break;
					h = hashUnit(h, c);
				}
				const c = text.charCodeAt(i);
				if ((c === 45 || c === 95) && i + 1 < n && wordAt(text, i + 1)) {
					h = hashUnit(h, c);
					i++;
					continue;
				}
				break;
			}
			if (i - start > CACHED_WORD_MAX) wordTerms(text.slice(start, i), addTerm);
			else this.addCached(text, start, i, hashEnd(h, i - start), add);
		}
	}

	/** Add the term ids of the short word `text[start, end)` whose hashRange is `hash`, tokenizing it only the first time it is seen. */
	private addCached(text: string, start: number, end: number, hash: number, add: (t: number) => void): void {
		let ids = this.wordCache.find(text, start, end, hash);
		if (ids === undefined) {
			const list: number[] = [];
			wordTerms(text.slice(start, end), (term) => list.push(this.termId(term)));
			ids = list.length === 1 ? list[0]! : list;
			if (this.wordCache.size >= this.cacheLimit) this.wordCache.clear();
			this.wordCache.add(text, hash, ids, start, end);
		}
		if (typeof ids === 'number') add(ids);
		else for (const t of ids) add(t);
	}
}
