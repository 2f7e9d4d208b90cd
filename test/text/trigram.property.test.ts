/**
 * Issue 11's trigram equivalence: for random notes and random literals, phrases and regexes
 * (case-sensitive and not; CJK, emoji, accents composed and decomposed, Greek sigmas, CRLF), the
 * index's candidates hold every note the real matcher matches, so a search that verifies only the
 * candidates answers exactly as a full scan. Also: edits and a serialise round trip keep that true.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileMatcher } from '../../src/core/text/matcher';
import { phraseMatcher } from '../../src/core/text/phrase';
import { regexQuery } from '../../src/core/text/regex-trigrams';
import { TrigramFormatError, TrigramIndex } from '../../src/core/text/trigram';
import { literalQuery, phraseQuery, type TrigramQuery } from '../../src/core/text/trigram-query';

const PIECES = [
	'a',
	'b',
	'ab',
	'abc',
	'B',
	'ABC',
	'the',
	'The',
	'é',
	'e\u0301',
	'É',
	'café',
	'cafe\u0301',
	'字',
	'漢字',
	'笔记',
	'😀',
	'🎉x',
	'Σ',
	'σ',
	'ς',
	'ſ',
	's',
	'K',
	'k',
	'İ',
	'i',
	'ß',
	'ẞ',
	' ',
	'  ',
	'\n',
	'\r\n',
	'\t',
	'.',
	'(',
	'[',
	'1',
	'2024',
];
const piece = fc.constantFrom(...PIECES);
const text = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''));

/** A regex source for a literal piece. */
function escaped(s: string): string {
	return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Random valid regexes in the dialect, from literal pieces, classes, groups and quantifiers. */
const regex: fc.Arbitrary<string> = fc.letrec<{ re: string; atom: string }>((tie) => ({
	atom: fc.oneof(
		{ weight: 5, arbitrary: piece.filter((p) => p !== '\r\n').map(escaped) },
		{
			weight: 1,
			arbitrary: fc.constantFrom(
				'.',
				'\\d',
				'\\w',
				'\\s',
				'[a-zé]',
				'[^a]',
				'\\b',
				'^',
				'$',
				'\\u00e9',
				'\\x41',
				'\\p{Han}',
			),
		},
		{ weight: 1, arbitrary: tie('re').map((r) => `(${r})`) },
		{ weight: 1, arbitrary: tie('re').map((r) => `(?:${r})`) },
	),
	re: fc
		.array(fc.tuple(tie('atom'), fc.constantFrom('', '', '', '*', '+', '?', '{2}', '{1,3}', '{0,2}', '+?')), {
			minLength: 1,
			maxLength: 4,
		})
		.chain((seq) =>
			fc
				.constantFrom('', '|')
				.map(
					(bar) =>
						seq.map(([a, q]) => (/^[\^$]$|^\\b$/.test(a) ? a : a + q)).join('') +
						(bar === '|' ? `|${escaped('ab')}` : ''),
				),
		),
})).re;

/** Build an index over `notes` (path = position). */
function indexOf(notes: string[]): TrigramIndex {
	const index = new TrigramIndex();
	notes.forEach((note, i) => index.upsert(`n${i}.md`, note));
	return index;
}

/** Every path whose text passes `test`, and whether all are among the candidates. */
function check(notes: string[], index: TrigramIndex, query: TrigramQuery, test: (note: string) => boolean): void {
	const candidates = index.candidates(query);
	const truth = notes.flatMap((note, i) => (test(note) ? [`n${i}.md`] : []));
	const verified =
		candidates === null
			? truth
			: notes.flatMap((note, i) => (candidates.has(`n${i}.md`) && test(note) ? [`n${i}.md`] : []));
	expect(verified).toEqual(truth);
	// The bitmap form grep and search use names the same notes (and passes notes it does not know).
	const mayHold = index.mayHold(query);
	expect(mayHold === null).toBe(candidates === null);
	if (mayHold !== null && candidates !== null) {
		expect(notes.map((_, i) => mayHold(`n${i}.md`))).toEqual(notes.map((_, i) => candidates.has(`n${i}.md`)));
		expect(mayHold('unknown.md')).toBe(true);
	}
}

const RUNS = { numRuns: 400, seed: 20261201 };

describe('trigram candidates hold every true match', () => {
	it('for literals, case-sensitive and not (lines and whole texts)', () => {
		fc.assert(
			fc.property(
				fc.array(text, { minLength: 1, maxLength: 8 }),
				fc.oneof(text, piece),
				fc.boolean(),
				(notes, literal, caseSensitive) => {
					const compiled = compileMatcher({ pattern: literal, regex: false, caseSensitive });
					if (!compiled.ok) return;
					const index = indexOf(notes);
					check(notes, index, literalQuery(literal), (n) => compiled.matcher.test(n));
					check(
						notes,
						index,
						literalQuery(literal),
						(n) => compiled.matcher.matchingLines(n, 0).lines.length > 0,
					);
				},
			),
			RUNS,
		);
	});

	it('for literals taken from the notes themselves', () => {
		fc.assert(
			fc.property(
				fc.array(text, { minLength: 1, maxLength: 8 }),
				fc.nat(),
				fc.nat(),
				fc.nat(),
				fc.boolean(),
				(notes, which, from, length, caseSensitive) => {
					const note = notes[which % notes.length]!;
					const start = note.length === 0 ? 0 : from % note.length;
					const literal = note.slice(start, start + 1 + (length % 8));
					const compiled = compileMatcher({ pattern: literal, regex: false, caseSensitive });
					if (!compiled.ok) return;
					check(notes, indexOf(notes), literalQuery(literal), (n) => compiled.matcher.test(n));
				},
			),
			RUNS,
		);
	});

	it('for phrases', () => {
		fc.assert(
			fc.property(fc.array(text, { minLength: 1, maxLength: 8 }), text, (notes, phrase) => {
				if (phrase.trim() === '') return;
				const matcher = phraseMatcher(phrase);
				check(notes, indexOf(notes), phraseQuery(phrase), (n) => matcher.test(n));
			}),
			RUNS,
		);
	});

	it('for regexes, case-sensitive and not (lines and whole texts)', () => {
		fc.assert(
			fc.property(
				fc.array(text, { minLength: 1, maxLength: 8 }),
				regex,
				fc.boolean(),
				(notes, pattern, caseSensitive) => {
					const compiled = compileMatcher({ pattern, regex: true, caseSensitive });
					if (!compiled.ok) return;
					const index = indexOf(notes);
					check(notes, index, regexQuery(pattern), (n) => compiled.matcher.test(n));
					check(
						notes,
						index,
						regexQuery(pattern),
						(n) => compiled.matcher.matchingLines(n, 0).lines.length > 0,
					);
				},
			),
			RUNS,
		);
	});

	it('after edits, a serialise round trip and more edits on the loaded index, as for a fresh index', () => {
		const edit = fc.array(fc.tuple(fc.nat(5), fc.option(text)), { maxLength: 12 });
		fc.assert(
			fc.property(edit, edit, piece, (before, after, literal) => {
				const compiled = compileMatcher({ pattern: literal, regex: false, caseSensitive: false });
				if (!compiled.ok) return;
				let index = new TrigramIndex();
				const notes = new Map<string, string>();
				const apply = (edits: [number, string | null][]): void => {
					for (const [n, body] of edits) {
						if (body === null) {
							index.remove(`n${n}.md`);
							notes.delete(`n${n}.md`);
						} else {
							index.upsert(`n${n}.md`, body);
							notes.set(`n${n}.md`, body);
						}
					}
				};
				const check = (current: TrigramIndex): void => {
					const truth = [...notes]
						.filter(([, body]) => compiled.matcher.test(body))
						.map(([p]) => p)
						.sort();
					expect(current.size).toBe(notes.size);
					const candidates = current.candidates(literalQuery(literal));
					const verified = [...notes]
						.filter(
							([p, body]) => (candidates === null || candidates.has(p)) && compiled.matcher.test(body),
						)
						.map(([p]) => p)
						.sort();
					expect(verified).toEqual(truth);
					const mayHold = current.mayHold(literalQuery(literal));
					if (mayHold !== null && candidates !== null)
						expect([...notes.keys()].filter(mayHold).sort()).toEqual([...candidates].sort());
				};
				apply(before);
				check(index);
				// Loaded from bytes, and from columns (the saved part's form), then edited: a frozen base plus changes.
				for (const loaded of [
					TrigramIndex.deserialize(index.serialize()),
					TrigramIndex.fromColumns(index.columns()),
				])
					check(loaded);
				index = TrigramIndex.fromColumns(index.columns());
				apply(after);
				check(index);
				check(TrigramIndex.deserialize(index.serialize()));
			}),
			RUNS,
		);
	});
});

describe('trigram index', () => {
	it('narrows: a rare literal and a required regex literal give few candidates', () => {
		const index = indexOf(['alpha beta', 'gamma delta', 'Kelly criterion', 'nothing']);
		expect(index.candidates(literalQuery('kelly'))).toEqual(new Set(['n2.md']));
		expect(index.candidates(regexQuery('(gamma|kelly) \\w+'))).toEqual(new Set(['n1.md', 'n2.md']));
		expect(index.candidates(regexQuery('.*'))).toBeNull();
		expect(index.candidates(literalQuery('ab'))).toBeNull();
	});

	it('refuses a truncated or foreign blob with a format error', () => {
		const bytes = indexOf(['alpha beta', 'gamma']).serialize();
		expect(() => TrigramIndex.deserialize(bytes.slice(0, bytes.length - 3))).toThrow(TrigramFormatError);
		const foreign = bytes.slice();
		foreign[0] = 9;
		expect(() => TrigramIndex.deserialize(foreign)).toThrow(/format 9/);
	});
});
