/**
 * Scoring and tiers. A note's score is the field-weighted BM25 of the words that match it
 * (typed words at weight 1, expansions lower), plus keyword-index bonuses, scaled by how many
 * of the typed words it covers. Every hit is then explained by the seed's tiers: synthesis,
 * keyword index, alias/filename, metadata, body — from the fields its words matched in.
 */
import { fieldMaskOf, type InvertedIndex } from './inverted-index';
import type { QueryWord } from './tokenize';
import { drain, WorkMeter } from '../steps';

/** The seed's tiers, best first; `filter` when a note matched filters only (no free text). */
export type Tier = 'synthesis' | 'keyword-index' | 'alias-filename' | 'metadata' | 'body' | 'filter';

/** The seed's base points per tier (Step 4), reported next to the BM25 score. */
export const TIER_POINTS: Record<Tier, number> = {
	synthesis: 40,
	'keyword-index': 35,
	'alias-filename': 25,
	metadata: 20,
	body: 10,
	filter: 0,
};

/** A word to score: typed or generated. */
export interface ScoredWord {
	word: QueryWord;
	weight: number;
	/** Index of the typed word it realises or expands; -1 for whole-query expansions. */
	origin: number;
	expansion: boolean;
	/** Label for reports: the word, or `前端 (synonym of frontend)`. */
	label: string;
	/** Rarity of the word (mean idf of its terms): the rarest match explains a tier best. */
	idf: number;
	/** A multi-word title, alias or synonym as one phrase: only a note holding all its terms matches it. */
	phrase?: boolean;
}

/** A ranked candidate. */
export interface Candidate {
	doc: number;
	score: number;
	/** Share of typed words covered, 0..1. */
	coverage: number;
}

const COORD_FLOOR = 0.25; // why: a note matching one of three words keeps a quarter of its weight — still findable, never on top of full matches.
const EXPANSION_COVER = 0.5; // why: a word covered only through a synonym/alias counts half, a typed word whole.
const PARTIAL_COVER = 0.8; // why: a CJK word with some of its bigrams present is likely the word split by punctuation; most of a cover.
const MAX_TRACKED_WORDS = 30; // why: coverage bitmasks are 32-bit; queries beyond 30 words are pasted paragraphs.

const FIELD_TITLE = 1 << 0;
const FIELD_ALIASES = 1 << 1;
const FIELD_METADATA = 1 << 2;
const FIELD_ABSTRACT = 1 << 4;

/** Notes' postings a ranking scores between two pauses at most (WorkMeter's step). */
const RANK_STEP = 4096; // why: ~1–2 ms of scoring on a quiet machine; a host's slice overshoots by about that.

/** Per-note scratch of one ranking, sized to the index's id space: all zero between rankings (each clears what it touched). */
class Scratch {
	readonly altSum: Float64Array;
	readonly altCnt: Uint8Array;
	readonly best: Float64Array;
	readonly bestCov: Float32Array;
	readonly score: Float64Array;
	readonly cover: Float32Array;
	readonly direct: Uint32Array;
	readonly viaExp: Uint32Array;
	readonly inWord: Uint8Array;
	readonly inAny: Uint8Array;
	/** The notes an alternative, a word and the whole query touched, in the order first touched (no array grown per ranking). */
	readonly altList: Uint32Array;
	readonly wordList: Uint32Array;
	readonly anyList: Uint32Array;

	constructor(readonly size: number) {
		this.altSum = new Float64Array(size);
		this.altCnt = new Uint8Array(size);
		this.best = new Float64Array(size);
		this.bestCov = new Float32Array(size);
		this.score = new Float64Array(size);
		this.cover = new Float32Array(size);
		this.direct = new Uint32Array(size);
		this.viaExp = new Uint32Array(size);
		this.inWord = new Uint8Array(size);
		this.inAny = new Uint8Array(size);
		this.altList = new Uint32Array(size);
		this.wordList = new Uint32Array(size);
		this.anyList = new Uint32Array(size);
	}
}

/** What a ranking scores: the query's words, the typed words' idf, the notes allowed, the keyword bonuses, how many to keep. */
export interface RankInput {
	words: readonly ScoredWord[];
	typedIdf: readonly number[];
	allowed: Uint8Array | null;
	bonus: Map<number, { points: number; covers: number }>;
	topK: number;
}

/**
 * Ranks notes with scratch arrays sized to the index's id space, reused from one ranking to the
 * next. A ranking run as steps pauses in the middle (a host's main thread runs it in slices): it
 * takes the spare scratch for itself, so another ranking that starts meanwhile gets a fresh one
 * and the two never share; only a ranking that finishes (its scratch all zero again) leaves it back.
 */
export class Scorer {
	/** A clean scratch no ranking holds, or null. */
	private spare: Scratch | null = null;

	constructor(private readonly index: InvertedIndex) {}

	/** A clean scratch for `n` ids, now held by the caller alone. */
	private take(n: number): Scratch {
		const spare = this.spare;
		this.spare = null;
		return spare !== null && spare.size >= n ? spare : new Scratch(Math.ceil(n * 1.25) + 16);
	}

	/**
	 * Score every note matched by the input's words (restricted to `allowed`), add `bonus` (keyword
	 * index: points and covered typed words), and return the `topK` best plus the total matched.
	 * As steps: it pauses after about RANK_STEP postings (`meter`'s step; and while the length
	 * norms are computed). When the index changed during a pause (an edit applied meanwhile), what was
	 * scored is dropped with its scratch and the ranking starts again over the index as it is now —
	 * in one go, so edits applied between every pause (a long reconcile) never starve it.
	 */
	*rankSteps(
		input: RankInput,
		meter = new WorkMeter(RANK_STEP),
	): Generator<void, { top: Candidate[]; total: number }, void> {
		yield* this.index.ensureNormSteps();
		let scratch = this.take(this.index.idSpace);
		let ranked = yield* this.scoreSteps(input, scratch, meter);
		if (ranked === null) {
			this.index.ensureNorm();
			scratch = this.take(this.index.idSpace);
			ranked = drain(this.scoreSteps(input, scratch, new WorkMeter(Infinity)))!; // no pause: no change meanwhile
		}
		this.spare = scratch;
		return ranked;
	}

	/** One ranking over `scratch` (clean, sized to the id space); null when the index changed during a pause. */
	private *scoreSteps(
		{ words, typedIdf, allowed, bonus, topK }: RankInput,
		scratch: Scratch,
		meter: WorkMeter,
	): Generator<void, { top: Candidate[]; total: number } | null, void> {
		const index = this.index;
		const { altSum, altCnt, best, bestCov, score, cover, direct, viaExp, inWord, inAny } = scratch;
		const { altList, wordList, anyList } = scratch;
		let anyCount = 0;
		const tracked = Math.min(typedIdf.length, MAX_TRACKED_WORDS);
		// Coverage is idf-weighted: missing a rare word costs more than missing a common one.
		let idfTotal = 0;
		for (let i = 0; i < tracked; i++) idfTotal += typedIdf[i]!;
		for (const sw of words) {
			let wordCount = 0;
			for (const alt of sw.word.alts) {
				let altCount = 0;
				const len = alt.length;
				for (const term of alt) {
					const t = index.lookup(term);
					if (t < 0) continue;
					const visit = (d: number, s: number): void => {
						if (altCnt[d] === 0) altList[altCount++] = d;
						altSum[d]! += s;
						altCnt[d]!++;
					};
					if (!(yield* index.forEachScoredSteps(t, allowed, visit, meter))) return null;
				}
				for (let i = 0; i < altCount; i++) {
					const d = altList[i]!;
					const frac = altCnt[d]! / len;
					// A multi-word expansion (a note's title or alias, a synonym) is a phrase: a note
					// holding only some of its words does not match it.
					if (sw.phrase === true && frac < 1) {
						altSum[d] = 0;
						altCnt[d] = 0;
						continue;
					}
					const v = (altSum[d]! / len) * frac;
					if (inWord[d] === 0) {
						inWord[d] = 1;
						wordList[wordCount++] = d;
					}
					if (v > best[d]!) best[d] = v;
					if (frac > bestCov[d]!) bestCov[d] = frac;
					altSum[d] = 0;
					altCnt[d] = 0;
				}
			}
			const bit =
				sw.origin >= 0 && sw.origin < tracked ? 1 << sw.origin : sw.origin < 0 ? (2 ** tracked - 1) >>> 0 : 0;
			for (let i = 0; i < wordCount; i++) {
				const d = wordList[i]!;
				if (inAny[d] === 0) {
					inAny[d] = 1;
					anyList[anyCount++] = d;
				}
				score[d]! += sw.weight * best[d]!;
				if (bit !== 0) {
					if (sw.expansion) viaExp[d]! |= bit;
					else if (bestCov[d]! >= 1) direct[d]! |= bit;
					else cover[d]! += PARTIAL_COVER * bestCov[d]! * typedIdf[sw.origin]!;
				}
				best[d] = 0;
				bestCov[d] = 0;
				inWord[d] = 0;
			}
		}
		for (const [d, b] of bonus) {
			if (!index.isAlive(d) || (allowed !== null && allowed[d] !== 1)) continue;
			if (inAny[d] === 0) {
				inAny[d] = 1;
				anyList[anyCount++] = d;
			}
			score[d]! += b.points;
			direct[d]! |= b.covers;
		}
		// Min-heap of the topK best by score.
		const heap: Candidate[] = [];
		let total = 0;
		for (let i = 0; i < anyCount; i++) {
			const d = anyList[i]!;
			const dm = direct[d]!;
			const exp = viaExp[d]! & ~dm;
			let covered = cover[d]!;
			for (let i = 0; i < tracked; i++) {
				if (dm & (1 << i)) covered += typedIdf[i]!;
				else if (exp & (1 << i)) covered += EXPANSION_COVER * typedIdf[i]!;
			}
			const coverage = idfTotal > 0 ? Math.min(1, covered / idfTotal) : 1;
			const s = score[d]! * (COORD_FLOOR + (1 - COORD_FLOOR) * coverage * coverage);
			score[d] = 0;
			cover[d] = 0;
			direct[d] = 0;
			viaExp[d] = 0;
			inAny[d] = 0;
			if (s <= 0) continue;
			total++;
			if (heap.length < topK) {
				heap.push({ doc: d, score: s, coverage });
				siftUp(heap, heap.length - 1);
			} else if (topK > 0 && s > heap[0]!.score) {
				heap[0] = { doc: d, score: s, coverage };
				siftDown(heap, 0);
			}
		}
		heap.sort((a, b) => b.score - a.score || a.doc - b.doc);
		return { top: heap, total };
	}
}

function siftUp(h: Candidate[], i: number): void {
	while (i > 0) {
		const p = (i - 1) >> 1;
		if (h[p]!.score <= h[i]!.score) break;
		[h[p], h[i]] = [h[i]!, h[p]!];
		i = p;
	}
}

function siftDown(h: Candidate[], i: number): void {
	for (;;) {
		const l = 2 * i + 1;
		const r = l + 1;
		let m = i;
		if (l < h.length && h[l]!.score < h[m]!.score) m = l;
		if (r < h.length && h[r]!.score < h[m]!.score) m = r;
		if (m === i) return;
		[h[m], h[i]] = [h[i]!, h[m]!];
		i = m;
	}
}

/** How one word matched one note. */
export interface WordMatch {
	sw: ScoredWord;
	/** Fields (bitmask, FIELD_NAMES order) where a full alternative of the word is present. */
	fields: number;
}

/** The words that fully match note `d`, with the fields they match in. */
export function matchedWords(index: InvertedIndex, d: number, words: readonly ScoredWord[]): WordMatch[] {
	const out: WordMatch[] = [];
	for (const sw of words) {
		let fields = 0;
		let matched = false;
		for (const alt of sw.word.alts) {
			let all = true;
			let and = 0x3f;
			let or = 0;
			for (const term of alt) {
				const t = index.lookup(term);
				const packed = t < 0 ? 0 : index.packedTf(t, d);
				if (packed === 0) {
					all = false;
					break;
				}
				const m = fieldMaskOf(packed);
				and &= m;
				or |= m;
			}
			if (!all) continue;
			matched = true;
			// A CJK word whose bigrams are spread over fields counts where most of it is: the body.
			fields |= and !== 0 ? and : or & ~0x1f ? 1 << 5 : or;
		}
		if (matched) out.push({ sw, fields });
	}
	return out;
}

/** The best tier a set of word matches explains (synthesis and keyword index are decided by the caller). */
export function tierOf(matches: readonly WordMatch[]): { tier: Tier; term: string | null } {
	const order: [Tier, number][] = [
		['alias-filename', FIELD_TITLE | FIELD_ALIASES],
		['metadata', FIELD_METADATA],
	];
	const rarest = (list: readonly WordMatch[]): WordMatch | undefined =>
		list.reduce<WordMatch | undefined>(
			(best, m) => (best === undefined || m.sw.idf > best.sw.idf ? m : best),
			undefined,
		);
	for (const [tier, mask] of order) {
		const typed = rarest(matches.filter((m) => !m.sw.expansion && m.fields & mask));
		if (typed) return { tier, term: typed.sw.label };
		const generated = rarest(matches.filter((m) => m.fields & mask));
		if (generated) return { tier, term: generated.sw.label };
	}
	const any = rarest(matches.filter((m) => !m.sw.expansion)) ?? matches[0];
	return { tier: 'body', term: any ? any.sw.label : null };
}

/** Whether a typed word matches in the title, aliases, abstract or metadata (the seed's synthesis condition). */
export function strongTypedMatch(matches: readonly WordMatch[]): boolean {
	return matches.some(
		(m) => !m.sw.expansion && m.fields & (FIELD_TITLE | FIELD_ALIASES | FIELD_ABSTRACT | FIELD_METADATA),
	);
}
