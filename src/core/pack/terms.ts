/**
 * Counting a query's index terms in section texts, fast. A pack grades every section of a few
 * dozen notes; tokenizing all of that text term by term costs more than the ranked search
 * itself, and only the query's few terms matter. So:
 * - CJK bigrams (two Han, kana or Hangul characters: nearly all CJK query terms) are counted as
 *   substrings of the normalised text — the index emits a same-script bigram for every
 *   adjacent pair inside a run, so the counts are the same;
 * - every other term is counted by the search tokenizer, word by word, with the terms of each
 *   distinct word cached for the pack (a section repeats its words).
 * Section length, for BM25, is the estimated token count (tokens.ts), not a term count.
 */
import { forEachWord, hasSpecialScript, normalizeText, tokenizeForIndex, wordTerms } from '../search/tokenize';
import { countTokens, tokensOf } from './tokens';

const CJK_BIGRAM = /^[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u30fc\u3005-\u3007\p{sc=Hangul}]{2}$/u;
/** Runs of the scripts the tokenizer treats specially (CJK, Hangul, South-East Asian); they only ever yield terms of those scripts. */
const SPECIAL_RUNS = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u30fc\u3005-\u3007\p{sc=Hangul}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]+/gu;
const MAX_CACHED_WORD = 40; // why: longer "words" are CJK runs or identifiers that never repeat; caching them only grows the map.

/** Counts the needed terms of texts (see the module comment). */
export class TermCounter {
	private readonly bigrams: string[] = [];
	private readonly others = new Set<string>();
	private readonly cache = new Map<string, string[]>();
	/** Whether some non-bigram term is itself CJK/Thai…: then special-script runs must be tokenized too. */
	private readonly specialOthers: boolean;

	/** `needed`: the index terms worth counting. */
	constructor(needed: ReadonlySet<string>) {
		for (const t of needed) {
			if (CJK_BIGRAM.test(t)) this.bigrams.push(t);
			else this.others.add(t);
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
		if (this.others.size > 0) {
			// No needed term is CJK/Thai…: blank those runs out and tokenize only what is left, as the
			// tokenizer does for the Latin (Cyrillic…) parts between them.
			const rest = this.specialOthers || !hasSpecialScript(norm) ? norm : norm.replace(SPECIAL_RUNS, ' ');
			forEachWord(rest, (word) => {
				for (const t of this.termsOfWord(word)) counts.set(t, (counts.get(t) ?? 0) + 1);
			});
		}
		return tokensOf(countTokens(norm));
	}
}

/** Every index term of a text, with counts (the slow, exact path; for tests and small texts). */
export function allTermCounts(text: string): Map<string, number> {
	const counts = new Map<string, number>();
	tokenizeForIndex(normalizeText(text), (t) => counts.set(t, (counts.get(t) ?? 0) + 1));
	return counts;
}
