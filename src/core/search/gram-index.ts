/**
 * Candidates for typo correction: a bigram index over the search index's vocabulary, built on
 * the first correction and kept beside the index (terms only ever append, so newer terms are
 * scanned linearly until there are enough of them to rebuild).
 *
 * The filter is the q-gram lemma: one edit touches at most two bigrams of a word (padded with a
 * start and an end mark), so a term within `max` edits of a form shares at least
 * (its distinct bigrams − 2 × max) of them. Terms below that count cannot be within `max` edits
 * and are never compared; the answer is the same as comparing the whole vocabulary.
 */
import type { InvertedIndex } from './inverted-index';

const START = 1; // why: a code unit no term holds marks the word's edges, so first and last letters get bigrams of their own.
const END = 2;
const UNINDEXED_MAX = 5_000; // why: terms added after the build are scanned one by one; past this many, rebuilding is cheaper.

/** Bigram → ids of the terms holding it, over the vocabulary's first `size` terms (CSR: gram g's ids are ids[starts[g]..starts[g+1])). */
interface GramIndex {
	size: number;
	minLength: number;
	table: GramTable;
	starts: Uint32Array;
	ids: Uint32Array;
}

/**
 * The gram index made per inverted index. It stays right as that index changes because term ids
 * are append-only (TermDictionary never renumbers, compaction included): it covers the first
 * `size` terms, later ones are scanned, and past UNINDEXED_MAX of them it is made again.
 */
const built = new WeakMap<InvertedIndex, GramIndex>();

/** The distinct padded bigrams of a word, each as one number (two UTF-16 code units; buildGrams inlines the same loop). */
function gramsOf(word: string): number[] {
	const out: number[] = [];
	let prev = START;
	for (let i = 0; i <= word.length; i++) {
		const c = i < word.length ? word.charCodeAt(i) : END;
		const g = ((prev << 16) | c) >>> 0;
		if (!out.includes(g)) out.push(g);
		prev = c;
	}
	return out;
}

/** Bigram → dense id, open addressing over typed arrays (a Map of 32-bit keys is several times slower to build). */
class GramTable {
	private bits = 16;
	private keys = new Uint32Array(1 << this.bits);
	private vals = new Int32Array(1 << this.bits);
	count = 0;

	/** The key's home slot: the top bits of a multiplicative hash. */
	private slot(key: number): number {
		return Math.imul(key, 0x9e3779b1) >>> (32 - this.bits);
	}

	/** The id of `key`, or -1. */
	get(key: number): number {
		const mask = this.keys.length - 1;
		for (let h = this.slot(key); ; h = (h + 1) & mask) {
			if (this.keys[h] === key) return this.vals[h]!;
			if (this.keys[h] === 0) return -1;
		}
	}

	/** The id of `key`, a new one when unseen. */
	add(key: number): number {
		const found = this.get(key);
		if (found >= 0) return found;
		if ((this.count + 1) * 2 > this.keys.length) this.grow();
		this.put(key, this.count);
		return this.count++;
	}

	private put(key: number, val: number): void {
		const mask = this.keys.length - 1;
		let h = this.slot(key);
		while (this.keys[h] !== 0) h = (h + 1) & mask;
		this.keys[h] = key;
		this.vals[h] = val;
	}

	private grow(): void {
		const { keys, vals } = this;
		this.bits++;
		this.keys = new Uint32Array(keys.length * 2);
		this.vals = new Int32Array(keys.length * 2);
		for (let h = 0; h < keys.length; h++) if (keys[h] !== 0) this.put(keys[h]!, vals[h]!);
	}
}

/** Append a term's distinct bigrams (as gram ids) and its id at `n`; returns the new end. A function of its own so the JIT optimises it after a few calls, not after the whole build. */
function addTermGrams(
	term: string,
	t: number,
	table: GramTable,
	occGram: Uint32Array,
	occTerm: Uint32Array,
	n: number,
): number {
	const first = n;
	let prev = START;
	for (let i = 0; i <= term.length; i++) {
		const c = i < term.length ? term.charCodeAt(i) : END;
		const g = table.add(((prev << 16) | c) >>> 0);
		prev = c;
		let seen = false;
		for (let k = first; k < n && !seen; k++) seen = occGram[k] === g;
		if (seen) continue;
		occGram[n] = g;
		occTerm[n++] = t;
	}
	return n;
}

/** Build the bigram postings of every term of at least `minLength` code units: count, then fill. */
function buildGrams(terms: readonly string[], minLength: number): GramIndex {
	const table = new GramTable();
	let total = 0;
	for (const term of terms) if (term.length >= minLength) total += term.length + 1;
	const occGram = new Uint32Array(total);
	const occTerm = new Uint32Array(total);
	let n = 0;
	for (let t = 0; t < terms.length; t++)
		if (terms[t]!.length >= minLength) n = addTermGrams(terms[t]!, t, table, occGram, occTerm, n);
	const starts = new Uint32Array(table.count + 1);
	for (let k = 0; k < n; k++) starts[occGram[k]! + 1]!++;
	for (let g = 0; g < table.count; g++) starts[g + 1]! += starts[g]!;
	const fill = starts.slice(0, table.count);
	const ids = new Uint32Array(n);
	for (let k = 0; k < n; k++) ids[fill[occGram[k]!]!++] = occTerm[k]!;
	return { size: terms.length, minLength, table, starts, ids };
}

/** The index's bigram postings, built or rebuilt when missing or too far behind the vocabulary. */
function gramIndexOf(index: InvertedIndex, minLength: number): GramIndex {
	let grams = built.get(index);
	if (!grams || grams.minLength !== minLength || index.terms.all().length - grams.size > UNINDEXED_MAX) {
		grams = buildGrams(index.terms.all(), minLength);
		built.set(index, grams);
	}
	return grams;
}

/**
 * Ids of every term of at least `minLength` code units that may lie within `max` edits of one
 * of `forms` (a superset: the caller measures the distance), in no particular order.
 */
export function gramCandidates(
	index: InvertedIndex,
	forms: readonly string[],
	max: number,
	minLength: number,
): number[] {
	const terms = index.terms.all();
	const grams = gramIndexOf(index, minLength);
	const picked = new Uint8Array(grams.size);
	const out: number[] = [];
	const take = (t: number): void => {
		if (picked[t] === 1) return;
		picked[t] = 1;
		out.push(t);
	};
	const counts = new Uint16Array(grams.size);
	for (const form of forms) {
		const own = gramsOf(form);
		const need = own.length - 2 * max;
		if (need <= 0) {
			// Too short to filter by bigrams: every term is a candidate.
			for (let t = 0; t < grams.size; t++) if (terms[t]!.length >= minLength) take(t);
			continue;
		}
		counts.fill(0);
		for (const key of own) {
			const g = grams.table.get(key);
			if (g < 0) continue;
			for (let k = grams.starts[g]!; k < grams.starts[g + 1]!; k++)
				if (++counts[grams.ids[k]!]! === need) take(grams.ids[k]!);
		}
	}
	for (let t = grams.size; t < terms.length; t++) if (terms[t]!.length >= minLength) out.push(t);
	return out;
}
