/**
 * Typo tolerance: a typed word that matches no note is taken as the closest index term —
 * edit distance 1 for words of 4–7 letters, 2 beyond — chosen from the index's own vocabulary
 * (fewest edits, then the term most notes hold, then the first in string order). Only words that
 * match nothing are corrected, so a correctly spelt query never changes, and the result says what
 * each word was taken as. Candidates are words of the vault's prose: a term its notes hold only in
 * code, addresses or HTML comments (extract.ts `TextPiece`) is searchable but never a correction.
 *
 * Speed: a scan of the whole vocabulary costs 50–190 ms per word on a 6,000-note multilingual
 * vault (210k terms), so candidates come from a bigram index over the vocabulary (gram-index.ts):
 * only terms sharing enough bigrams with the word can be within the allowed edits.
 */
import { editDistance } from '../suggest';
import { gramCandidates } from './gram-index';
import type { InvertedIndex } from './inverted-index';
import { stem } from './stem';
import { foldWord, type QueryWord } from './tokenize';

const MIN_FUZZY_LENGTH = 4; // why: shorter words are one edit away from dozens of others.
const LONG_WORD = 8; // why: issue 14's rule: one edit up to 7 letters, two from 8.

/** Whether the index holds every term of some alternative of the word. */
export function wordMatches(index: InvertedIndex, word: QueryWord): boolean {
	return word.alts.some(
		(alt) => alt.length > 0 && alt.every((t) => index.lookup(t) >= 0 && index.docFreq(index.lookup(t)) > 0),
	);
}

/**
 * The index term a misspelt plain word (letters only) stands for, or null: compared as typed
 * and as stemmed, since the index holds stems. Ties on edits and note count go to the term first
 * in string order — not the older one, so an edited index corrects as a fresh build of the same notes does.
 */
export function correctWord(index: InvertedIndex, word: QueryWord): string | null {
	const typed = foldWord(word.text);
	if (typed.length < MIN_FUZZY_LENGTH || !/^\p{L}+$/u.test(typed)) return null;
	const max = typed.length >= LONG_WORD ? 2 : 1;
	const forms = /^[a-z]+$/.test(typed) ? [typed, stem(typed)] : [typed];
	let best: { term: string; dist: number; df: number } | null = null;
	const terms = index.terms.all();
	for (const t of gramCandidates(index, forms, max, MIN_FUZZY_LENGTH - 1)) {
		const term = terms[t]!;
		if (Math.abs(term.length - typed.length) > max + 2) continue;
		let dist = max + 1;
		for (const f of forms) dist = Math.min(dist, editDistance(f, term, max));
		if (dist > max || dist === 0) continue;
		const df = index.docFreq(t);
		if (df === 0 || !index.heldInProse(t)) continue;
		if (
			best === null ||
			dist < best.dist ||
			(dist === best.dist && (df > best.df || (df === best.df && term < best.term)))
		)
			best = { term, dist, df };
	}
	return best?.term ?? null;
}
