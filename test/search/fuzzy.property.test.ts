/** Typo correction through the vocabulary's bigram index finds exactly what comparing every vocabulary term finds. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editDistance } from '../../src/core/suggest';
import { correctWord } from '../../src/core/search/fuzzy';
import type { InvertedIndex } from '../../src/core/search/inverted-index';
import { SearchIndex } from '../../src/core/search/search';
import { stem } from '../../src/core/search/stem';
import { foldWord, type QueryWord } from '../../src/core/search/tokenize';
import { MemorySource } from '../helpers/memory-source';

/** The rule of fuzzy.ts applied to every term: fewest edits, then most notes, then the first in string order. */
function bruteForce(index: InvertedIndex, text: string): string | null {
	const typed = foldWord(text);
	if (typed.length < 4 || !/^\p{L}+$/u.test(typed)) return null;
	const max = typed.length >= 8 ? 2 : 1;
	const forms = /^[a-z]+$/.test(typed) ? [typed, stem(typed)] : [typed];
	let best: { term: string; dist: number; df: number } | null = null;
	index.terms.all().forEach((term, t) => {
		if (term.length < 3 || Math.abs(term.length - typed.length) > max + 2) return;
		const dist = Math.min(...forms.map((f) => editDistance(f, term, max)));
		const df = index.docFreq(t);
		if (dist > max || dist === 0 || df === 0) return;
		if (
			best === null ||
			dist < best.dist ||
			(dist === best.dist && (df > best.df || (df === best.df && term < best.term)))
		)
			best = { term, dist, df };
	});
	return (best as { term: string } | null)?.term ?? null;
}

const word = (alphabet: string): fc.Arbitrary<string> =>
	fc.array(fc.constantFrom(...alphabet), { minLength: 3, maxLength: 10 }).map((cs) => cs.join(''));
const asTyped = (text: string): QueryWord => ({ text, alts: [[text]] });

describe('typo correction (bigram candidates)', () => {
	it('corrects a typo to the same term as a scan of the whole vocabulary would', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.array(word('abcdeé'), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 12 }),
				fc.array(word('abcdeéf'), { minLength: 1, maxLength: 8 }),
				async (notes, queries) => {
					const files = Object.fromEntries(notes.map((words, i) => [`n${i}.md`, `${words.join(' ')}\n`]));
					const si = await SearchIndex.build(new MemorySource(files));
					for (const q of queries) expect(correctWord(si.index, asTyped(q))).toBe(bruteForce(si.index, q));
				},
			),
			{ numRuns: 60 },
		);
	});

	it('finds words of notes added after the first correction', async () => {
		const source = new MemorySource({ 'a.md': 'calendar plugin\n' });
		const si = await SearchIndex.build(source);
		expect(correctWord(si.index, asTyped('calender'))).toBe('calendar');
		expect(correctWord(si.index, asTyped('trampolene'))).toBeNull();
		si.index.upsert({ path: 'b.md', text: 'trampoline\n', metadata: null });
		expect(correctWord(si.index, asTyped('trampolene'))).toBe('trampolin');
	});
});
