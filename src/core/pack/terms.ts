/**
 * Counting a query's index terms in section texts, fast. A pack grades every section of a few
 * dozen notes; tokenizing all of that text term by term costs more than the ranked search
 * itself, and only the query's few terms matter. So:
 * - CJK bigrams (two Han, kana or Hangul characters: nearly all CJK query terms) are counted as
 *   substrings of the normalised text — the index emits a same-script bigram for every
 *   adjacent pair inside a run, so the counts are the same;
 * - single Han or kana characters (the index's unigrams: a kanji with no neighbour in its run
 *   but hiragana, 使 in 使う; a one-character run) are found as substrings too and kept when
 *   their neighbours are what cjkTerms (search/tokenize.ts) makes a unigram of;
 * - every other term is counted by the search tokenizer, word by word, with the terms of each
 *   distinct word cached for the pack (a section repeats its words); a simple word whose first
 *   letter starts no wanted term is skipped unread (forEachWordStartingWith).
 * Section length, for BM25, is the estimated token count (tokens.ts), not a term count.
 */
import { hasSpecialScript, normalizeText, tokenizeForIndex, wordTerms } from '../search/tokenize';
import { forEachWordStartingWith } from '../search/words';
import { countTokens, tokensOf } from './tokens';

const CJK_BIGRAM = /^[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u30fc\u3005-\u3007\p{sc=Hangul}]{2}$/u;
/** One character of a Han/kana run as the tokenizer cuts runs (SPLIT_SPECIAL_RE's first group). */
const CJK_RUN_CHAR = /^[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u30fc\u3005\u3006\u3007]$/u;
/** Runs of the scripts the tokenizer treats specially (CJK, Hangul, South-East Asian); they only ever yield terms of those scripts. */
const SPECIAL_RUNS =
	/[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u30fc\u3005-\u3007\p{sc=Hangul}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]+/gu;
const MAX_CACHED_WORD = 40; // why: longer "words" are CJK runs or identifiers that never repeat; caching them only grows the map.

/** Counts the needed terms of texts (see the module comment). */
export class TermCounter {
	private readonly bigrams: string[] = [];
	private readonly unigrams: string[] = [];
	private readonly others = new Set<string>();
	private readonly cache = new Map<string, string[]>();
	/** First code units (below U+0E00) of the needed non-bigram terms: a simple word starting with another letter cannot yield one. */
	private readonly firstWanted = new Uint8Array(0x0e00);
	/** Whether some non-bigram term is itself CJK/Thai…: then special-script runs must be tokenized too. */
	private readonly specialOthers: boolean;

	/** `needed`: the index terms worth counting. */
	constructor(needed: ReadonlySet<string>) {
		for (const t of needed) {
			if (CJK_BIGRAM.test(t)) this.bigrams.push(t);
			else if (CJK_RUN_CHAR.test(t)) this.unigrams.push(t);
			else {
				this.others.add(t);
				if (t.charCodeAt(0) < this.firstWanted.length) this.firstWanted[t.charCodeAt(0)] = 1;
			}
		}
		this.specialOthers = [...this.others].some(hasSpecialScript);
	}

	/** The needed non-bigram terms of one word, cached. */
	private termsOfWord(word: string): string[] {
		let terms = this.cache.get(word);
		if (terms !== undefined) return terms;
		const found: string[] = [];
		wordTerms(word, (t) => {
			if (this.others.has(t)) found.push(t);
		});
		if (word.length <= MAX_CACHED_WORD) this.cache.set(word, found);
		return found;
	}

	/** Add the needed terms of `text` to `counts`; returns the text's length in estimated tokens. */
	count(text: string, counts: Map<string, number>): number {
		const norm = normalizeText(text);
		for (const b of this.bigrams) {
			let n = 0;
			for (let at = norm.indexOf(b); at >= 0; at = norm.indexOf(b, at + 1)) n++;
			if (n > 0) counts.set(b, (counts.get(b) ?? 0) + n);
		}
		for (const u of this.unigrams) {
			let n = 0;
			for (let at = norm.indexOf(u); at >= 0; at = norm.indexOf(u, at + 1))
				if (isUnigramAt(norm, at, u.length)) n++;
			if (n > 0) counts.set(u, (counts.get(u) ?? 0) + n);
		}
		if (this.others.size > 0) {
			// No needed term is CJK/Thai…: blank those runs out and tokenize only what is left, as the
			// tokenizer does for the Latin (Cyrillic…) parts between them.
			const rest = this.specialOthers || !hasSpecialScript(norm) ? norm : norm.replace(SPECIAL_RUNS, ' ');
			forEachWordStartingWith(rest, this.firstWanted, (word) => {
				for (const t of this.termsOfWord(word)) counts.set(t, (counts.get(t) ?? 0) + 1);
			});
		}
		return tokensOf(countTokens(norm));
	}
}

/** Whether a code point is a hiragana letter (the tokenizer never pairs hiragana with other kana or Han). */
function isHiragana(cp: number): boolean {
	return cp >= 0x3040 && cp <= 0x309f;
}

/** The code point before `at` (a surrogate pair read whole), or -1 at the start. */
function codePointBefore(text: string, at: number): number {
	if (at === 0) return -1;
	const low = text.charCodeAt(at - 1);
	if (low >= 0xdc00 && low <= 0xdfff && at >= 2) {
		const high = text.charCodeAt(at - 2);
		if (high >= 0xd800 && high <= 0xdbff) return 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00);
	}
	return low;
}

/** Whether a code point belongs to a Han/kana run. */
function inRun(cp: number): boolean {
	return cp >= 0 && CJK_RUN_CHAR.test(String.fromCodePoint(cp));
}

/**
 * Whether the Han/kana character at `at` (`length` units) is an index term there, as cjkTerms
 * decides: alone in its run, or not hiragana and with no non-hiragana neighbour in the run
 * (a non-hiragana neighbour would pair with it into a bigram).
 */
function isUnigramAt(text: string, at: number, length: number): boolean {
	const before = codePointBefore(text, at);
	const after = at + length < text.length ? (text.codePointAt(at + length) ?? -1) : -1;
	const left = inRun(before);
	const right = inRun(after);
	if (!left && !right) return true;
	if (isHiragana(text.codePointAt(at) ?? 0)) return false;
	return !(left && !isHiragana(before)) && !(right && !isHiragana(after));
}

/** Every index term of a text, with counts (the slow, exact path; for tests and small texts). */
export function allTermCounts(text: string): Map<string, number> {
	const counts = new Map<string, number>();
	tokenizeForIndex(normalizeText(text), (t) => counts.set(t, (counts.get(t) ?? 0) + 1));
	return counts;
}
