/** The pack's fast term counter counts every wanted term exactly as the search tokenizer would. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allTermCounts, TermCounter } from '../../src/core/pack/terms';
import { countTokens } from '../../src/core/pack/tokens';

// Words that stress the shortcuts: compounds (connectors, camelCase), capitals, diacritics, digits,
// stop words, stems that change endings, CJK and Hangul glued to Latin, full-width letters, Cyrillic,
// Greek, Arabic, Devanagari and Thai words, letters whose folding decomposes or changes them.
const WORDS = [
	'Links',
	'linking',
	'link',
	'front-end',
	'frontend',
	'snake_case',
	'camelCase',
	'XMLHttp',
	'URL',
	'Café',
	'ÉCOLE',
	'école',
	'straße',
	'Ωmega',
	'v2',
	'2024',
	'the',
	'and',
	'tries',
	'trying',
	'ties',
	'sync',
	'Syncing',
	'end-to-end',
	'E2E',
	'iPhone',
	'Обсидиан',
	'заметки',
	'链接',
	'笔记中的链接',
	'Obsidian中文',
	'リンク',
	'한국어',
	'ＡＢＣ',
	'naïve',
	'Zettel-kasten',
	'_under_',
	'a-b-c-d-e-f',
	'Йод',
	'йод',
	'Ёлка',
	'ёлка',
	'Йé',
	'иé',
	'Привет',
	'ПриветX',
	'مرحبا',
	'हिन्दी',
	'ΣΟΦΙΑ',
	'σοφια',
	'ﬁle',
	'İstanbul',
	'istanbul',
	'Ǆemal',
	'ตัวอย่าง',
	'Øl',
	'øl',
	'Bücher',
	'bucher',
	'使う',
	'い',
	'したい',
	'絞り込む',
	'ノート々',
	'ー',
	'𠀋',
	'𠀋い',
	'い𠀋',
	'中-文',
	'ひらがな',
	'テスト使',
];
const SEPARATORS = [' ', '. ', ', ', '\n', ' - ', '/', '(', ')', '[[', ']]', '#', '!', '？'];

/** Every index term of the words above: a test wants any subset of them (a compound's part alone too). */
const TERMS = [...new Set(WORDS.flatMap((w) => [...allTermCounts(w).keys()]))];

const text = fc
	.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { maxLength: 30 })
	.map((ps) => ps.map(([w, s]) => w + s).join(''));

describe('TermCounter', () => {
	it('counts the wanted terms of any text as the full tokenizer does', () => {
		fc.assert(
			fc.property(text, fc.subarray(TERMS, { minLength: 1 }), (t, wanted) => {
				const needed = new Set(wanted);
				const counts = new Map<string, number>();
				new TermCounter(needed).count(t, counts);
				const exact = allTermCounts(t);
				for (const term of needed) expect(counts.get(term) ?? 0, term).toBe(exact.get(term) ?? 0);
			}),
			{ numRuns: 300 },
		);
	});

	it('counts tokens of text with no CJK or astral characters by its length', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (t) => {
				let cjk = 0;
				let other = 0;
				for (const ch of t) {
					const cp = ch.codePointAt(0) ?? 0;
					if (
						(cp >= 0x1100 && cp <= 0x11ff) ||
						(cp >= 0x2e80 && cp <= 0x9fff) ||
						(cp >= 0xa960 && cp <= 0xa97f) ||
						(cp >= 0xac00 && cp <= 0xd7ff) ||
						(cp >= 0xf900 && cp <= 0xfaff) ||
						(cp >= 0xfe10 && cp <= 0xfe1f) ||
						(cp >= 0xfe30 && cp <= 0xfe6f) ||
						(cp >= 0xff00 && cp <= 0xffef) ||
						(cp >= 0x20000 && cp <= 0x3ffff)
					)
						cjk++;
					else other++;
				}
				expect(countTokens(t)).toEqual({ cjk, other });
			}),
			{ numRuns: 300 },
		);
	});
});
