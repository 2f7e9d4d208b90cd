/**
 * Typo tolerance: a typed word that matches no note is taken as the closest index term —
 * edit distance 1 for words of 4–7 letters, 2 beyond — chosen from the index's own vocabulary
 * (fewest edits, then the term most notes hold). Only words that match nothing are corrected,
 * so a correctly spelt query never changes, and the result says what each word was taken as.
 */
import { editDistance } from '../suggest';
import type { InvertedIndex } from './inverted-index';
import { stem } from './stem';
import { foldWord, type QueryWord } from './tokenize';

const MIN_FUZZY_LENGTH = 4; // why: shorter words are one edit away from dozens of others.
const LONG_WORD = 8; // why: issue 14's rule: one edit up to 7 letters, two from 8.
const MAX_CANDIDATES_SCANNED = 400_000; // why: bounds a scan on a huge vocabulary (~10 ms); real vaults have far fewer terms.

/** Whether the index holds every term of some alternative of the word. */
export function wordMatches(index: InvertedIndex, word: QueryWord): boolean {
	return word.alts.some((alt) => alt.length > 0 && alt.every((t) => index.lookup(t) >= 0 && index.docFreq(index.lookup(t)) > 0));
}

/**
 * The index term a misspelt plain word (letters only) stands for, or null: compared as typed
 * and as stemmed, since the index holds stems.
 */
export function correctWord(index: InvertedIndex, word: QueryWord): string | null {
	const typed = foldWord(word.text);
	if (typed.length < MIN_FUZZY_LENGTH || !/^\p{L}+$/u.test(typed)) return null;
	const max = typed.length >= LONG_WORD ? 2 : 1;
	const forms = /^[a-z]+$/.test(typed) ? [typed, stem(typed)] : [typed];
	let best: { term: string; dist: number; df: number } | null = null;
	const terms = index.termList;
	const n = Math.min(terms.length, MAX_CANDIDATES_SCANNED);
	for (let t = 0; t < n; t++) {
		const term = terms[t];
		if (term.length < MIN_FUZZY_LENGTH - 1 || Math.abs(term.length - typed.length) > max + 2) continue;
		let dist = max + 1;
		for (const f of forms) dist = Math.min(dist, editDistance(f, term, max));
		if (dist > max || dist === 0) continue;
		const df = index.docFreq(t);
		if (df === 0) continue;
		if (best === null || dist < best.dist || (dist === best.dist && df > best.df)) best = { term, dist, df };
	}
	return best?.term ?? null;
}
