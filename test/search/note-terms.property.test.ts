/**
 * The index build's term counter counts what the tokenizer says, whatever the text: over random
 * texts (words of many scripts, compounds, connectors, emoji, lone surrogates, marks, long runs
 * and long pieces) it gives the terms, per-field frequencies and field lengths of a plain
 * reference kept here — every word through the tokenizer, no cache, no scanner of its own.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldTexts, TextPiece } from '../../src/core/search/extract';
import { NoteTermCounter } from '../../src/core/search/note-terms';
import { FIELD_TF_MASK, TF_BITS, TF_MAX, UNREAD_ONLY } from '../../src/core/search/packed-tf';
import { TermDictionary } from '../../src/core/search/term-dictionary';
import { normalizeText, tokenizeForIndex } from '../../src/core/search/tokenize';

/** Words and pieces of words that stress the scanner and the tokenizer's paths. */
const PARTS = [
	'Links',
	'linking',
	'front-end',
	'snake_case',
	'camelCase',
	'XMLHttp',
	'Café',
	'straße',
	'Ωmega',
	'ΣΟΦΙΑ',
	'v2',
	'the',
	'Обсидиан',
	'链接',
	'笔记中的链接',
	'Obsidian中文',
	'リンクを作る',
	'한국어입니다',
	'ＡＢＣ',
	'ﬁle',
	'İstanbul',
	'ตัวอย่างภาษาไทย',
	'ភាសាខ្មែរ',
	'हिन्दी',
	'مرحبا',
	'e\u0301',
	'𠀀𠀁',
	'🔡STAR',
	'⭐\ufe0f',
	'\ud800',
	'\udc00',
	'-',
	'_',
	'--',
	' ',
	'\n',
	'.',
	'x'.repeat(70),
	'長'.repeat(70),
];

const textArb = fc
	.array(
		fc.oneof(fc.constantFrom(...PARTS), fc.string({ unit: 'binary', maxLength: 6 }), fc.string({ maxLength: 8 })),
		{
			maxLength: 40,
		},
	)
	.map((parts) => parts.join(''));
const pieceArb: fc.Arbitrary<TextPiece> = fc.oneof(
	textArb,
	textArb.map((unread) => ({ unread })),
	// Longer than the counter's normalisation step (4,096 units), with and without line breaks.
	fc.tuple(textArb, fc.boolean()).map(([t, lines]) => Array.from({ length: 80 }, () => t).join(lines ? '\n' : ' ')),
);
const piecesArb = fc.array(pieceArb, { maxLength: 3 });
const fieldsArb: fc.Arbitrary<FieldTexts> = fc.tuple(piecesArb, piecesArb, piecesArb, piecesArb, piecesArb, piecesArb);

/** The reference count of one note: term strings in order of first occurrence, packed frequencies, field lengths. */
function referenceCount(fields: FieldTexts): { terms: string[]; tfs: number[]; fieldLen: number[] } {
	const slot = new Map<string, number>();
	const terms: string[] = [];
	const tfs: number[] = [];
	const prose = new Set<string>();
	const fieldLen: number[] = [];
	fields.forEach((pieces, f) => {
		let len = 0;
		for (const piece of pieces) {
			const isProse = typeof piece === 'string';
			const text = typeof piece === 'string' ? piece : piece.unread;
			tokenizeForIndex(normalizeText(text), (term) => {
				len++;
				if (isProse) prose.add(term);
				let s = slot.get(term);
				if (s === undefined) {
					slot.set(term, (s = terms.length));
					terms.push(term);
					tfs.push(0);
				}
				if (((tfs[s]! >>> (f * TF_BITS)) & FIELD_TF_MASK) < TF_MAX) tfs[s]! += 1 << (f * TF_BITS);
			});
		}
		fieldLen.push(len);
	});
	return { terms, tfs: tfs.map((tf, i) => (prose.has(terms[i]!) ? tf : tf | UNREAD_ONLY)), fieldLen };
}

describe('note term counter', () => {
	it('counts every note as the tokenizer word by word does, across notes sharing one cache', () => {
		fc.assert(
			fc.property(fc.array(fieldsArb, { minLength: 1, maxLength: 4 }), (notes) => {
				const dictionary = new TermDictionary();
				const counter = new NoteTermCounter(dictionary);
				for (const fields of notes) {
					counter.count(fields);
					const got = {
						terms: counter.terms.map((id) => dictionary.term(id)),
						tfs: [...counter.tfs],
						fieldLen: [...counter.fieldLen],
					};
					expect(got).toEqual(referenceCount(fields));
				}
			}),
			{ numRuns: 120 },
		);
	});
});
