/**
 * The WebAssembly scan of a note's bytes for an ASCII literal (src/core/text/line-scan.ts, the full
 * grep answer's path) finds the lines the JavaScript search on the same bytes finds — line numbers,
 * line starts, each match line's end, the first context line's start — wherever the matches and
 * line ends fall against its sixteen-byte steps, in notes larger than its memory at first, read
 * straight into its memory or copied there; and the matcher answers the same with it turned off.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { NoteBytes } from '../../src/core/port';
import { matchLinesOfBytes } from '../../src/core/query/grep';
import { lineScanArea, lineScanKind, scanLines, useLineScan } from '../../src/core/text/line-scan';
import { offsetOfLine } from '../../src/core/text/lines';
import { compileMatcher, type LineHits, type TextMatcher } from '../../src/core/text/matcher';

/** A note's bytes as the Node source hands them over (`readBytes`). */
function noteOf(text: string, bytes: Buffer = Buffer.from(text, 'utf8')): NoteBytes {
	return {
		latin1: bytes.toString('latin1'),
		latin1Of: (start, end) => bytes.toString('latin1', start, end),
		text: (start, end) => bytes.toString('utf8', start, end),
		bytes,
	};
}

function literal(pattern: string, caseSensitive = false): TextMatcher {
	const compiled = compileMatcher({ pattern, regex: false, caseSensitive });
	if (!compiled.ok) throw new Error(compiled.error);
	return compiled.matcher;
}

/** Where each line of `hits` ends in `latin1` (its line end, or the length), as the scan reports it. */
function lineEnds(latin1: string, hits: LineHits): number[] {
	return hits.starts!.map((start) => {
		const end = latin1.indexOf('\n', start);
		return end < 0 ? latin1.length : end;
	});
}

/** The matcher's answer on the note's bytes by the scan, checked against its JavaScript search on the same bytes. */
function bothWays(matcher: TextMatcher, text: string, fromLine: number, before: number): LineHits | null {
	const note = noteOf(text);
	const scanned = matcher.onBytes!(note, fromLine, before);
	const searched = matcher.onBytes!(note.latin1, fromLine, before);
	if (searched === null) {
		expect(scanned).toBeNull();
		return null;
	}
	const { ends, ...rest } = scanned!;
	expect(rest).toEqual(searched);
	expect(ends).toEqual(lineEnds(note.latin1, searched));
	return scanned;
}

/** Pieces of note text: line ends of both kinds, letters of both cases, non-ASCII bytes, marks, long runs. */
const PIECES = [
	'obsidian',
	'OBSIDIAN',
	'ObSiDiAn',
	'obsidia',
	'bsidian',
	'o',
	'\n',
	'\r\n',
	'\n\n\n',
	'---\n',
	'\t',
	' ',
	'x'.repeat(15),
	'y'.repeat(16),
	'z'.repeat(17),
	'の',
	'é',
	'e\u0301',
	'\u0301',
	'’',
	'\u00c0\u00ff',
	'[[',
	'k',
	'K',
	'\u212a',
];

const NEEDLES = ['obsidian', 'OBSIDIAN', 'o', 'x', 'n\tb', '[[', 'k', 'xz', 'obsidian obsidian', 'e'];

afterEach(() => useLineScan(true));

describe('the WebAssembly line scan', () => {
	it('is there (Node has WebAssembly with SIMD)', () => {
		expect(lineScanKind()).toBe('simd');
	});

	it('finds the lines, starts, ends and first context lines of a literal', () => {
		const text = 'Obsidian first\nnone\r\nsome obsidian here\r\n\nand OBSIDIAN';
		const bytes = new Uint8Array(Buffer.from(text));
		expect(scanLines(bytes, 0, 0, 'obsidian', false, 2)).toEqual({
			lines: [0, 2, 4],
			starts: [0, 21, 42],
			ends: [14, 40, 54],
			firstStarts: [0, 0, 21],
			marks: [],
		});
		// With case, from the second line on.
		expect(scanLines(bytes, 15, 1, 'OBSIDIAN', true, 3)).toEqual({
			lines: [4],
			starts: [42],
			ends: [54],
			firstStarts: [15],
			marks: [],
		});
	});

	it('answers as the JavaScript search on random notes', () => {
		let answered = 0;
		fc.assert(
			fc.property(
				fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }),
				fc.constantFrom(...NEEDLES),
				fc.boolean(),
				fc.nat(3),
				fc.nat(4),
				(pieces, needle, caseSensitive, fromLine, before) => {
					if (bothWays(literal(needle, caseSensitive), pieces.join(''), fromLine, before) !== null)
						answered++;
				},
			),
			{ numRuns: 3000 },
		);
		expect(answered).toBeGreaterThan(1000);
	});

	it('finds a match at the very start and the very end of a note, at every place against its steps', () => {
		const matcher = literal('obsidian');
		for (let pad = 0; pad < 40; pad++) {
			const filler = 'a'.repeat(pad);
			expect(bothWays(matcher, `obsidian${filler}`, 0, 2)?.lines).toEqual([0]);
			expect(bothWays(matcher, `${filler}obsidian`, 0, 2)?.lines).toEqual([0]);
			expect(bothWays(matcher, `${filler}\nOBSIDIAN\n`, 0, 2)?.lines).toEqual([1]);
			// Cut short by the end of the note: no match.
			expect(bothWays(matcher, `${filler}obsidia`, 0, 2)?.lines).toEqual([]);
		}
	});

	it('reads CRLF line ends as the JavaScript search does', () => {
		const hits = bothWays(literal('b'), 'a\r\nb\r\nc b\r\n', 0, 1);
		expect(hits).toEqual({ lines: [1, 2], cutLines: 0, starts: [3, 6], ends: [5, 10], firstStarts: [0, 3] });
	});

	it('hands back a note where a combining mark follows a match, and keeps one where another character does', () => {
		expect(bothWays(literal('cafe'), 'x\ncafe\u0301\n', 0, 0)).toBeNull();
		expect(bothWays(literal('obsidian'), 'Obsidianの\nx’obsidian’\né', 0, 0)?.lines).toEqual([0, 1]);
	});

	it('scans a note larger than its memory at first, copied or read into its memory', () => {
		const lines = Array.from({ length: 40_000 }, (_, i) =>
			i % 997 === 5 ? `line ${i} Obsidian` : `line ${i} text`,
		);
		const text = lines.join('\n');
		expect(text.length).toBeGreaterThan(4 * 65_536);
		const expected = lines.flatMap((line, i) => (line.includes('Obsidian') ? [i] : []));
		const hits = bothWays(literal('obsidian'), text, 0, 2)!;
		expect(hits.lines).toEqual(expected);
		// Read into the scan's memory, as the Node source reads a note of known size.
		const bytes = Buffer.from(text);
		const area = lineScanArea(bytes.length)!;
		area.set(bytes);
		const inPlace = Buffer.from(area.buffer, area.byteOffset, bytes.length);
		expect(literal('obsidian').onBytes!(noteOf(text, inPlace), 0, 2)).toEqual(hits);
		expect(hits.starts).toEqual(expected.map((line) => offsetOfLine(text, line)));
	});

	it('leaves bytes in its memory but not at its start (a byte order mark left out) to the JavaScript search, untouched', () => {
		const text = 'x obsidian\nnone\nObsidian y';
		const withMark = Buffer.from(`\ufeff${text}`);
		const area = lineScanArea(withMark.length)!;
		area.set(withMark);
		const afterMark = Buffer.from(area.buffer, area.byteOffset + 3, withMark.length - 3);
		const hits = literal('obsidian').onBytes!(noteOf(text, afterMark), 0, 1);
		expect(hits).toEqual({ lines: [0, 2], cutLines: 0, starts: [0, 16], firstStarts: [0, 11] });
		expect(afterMark.toString('utf8')).toBe(text);
	});

	it('writes the listing the line list gives (heads, lines, stretches), for any context', () => {
		let listed = 0;
		fc.assert(
			fc.property(
				fc.array(fc.constantFrom(...PIECES), { maxLength: 80 }),
				fc.constantFrom('o', 'obsidian', 'x', '[['),
				fc.nat(2),
				fc.nat(6),
				(pieces, needle, minLine, context) => {
					const note = noteOf(pieces.join(''));
					const found = matchLinesOfBytes(note, minLine, literal(needle), context, true);
					const raw = found?.raw;
					if (raw?.listed === undefined) return;
					listed++;
					const { bytes, from, to } = raw.listed;
					const copy = Buffer.from(bytes);
					// The same lines as the line list, printed as the stream prints it.
					const { lines } = raw;
					const parts: Buffer[] = [];
					for (let k = 0; k < lines.length; k += 4) {
						if (lines[k] === -1) {
							parts.push(Buffer.from('\n  --'));
							k -= 3;
							continue;
						}
						parts.push(Buffer.from(`\n  ${lines[k]}${lines[k + 1] === 1 ? ':' : '-'} `));
						parts.push(Buffer.from(note.bytes.subarray(lines[k + 2], lines[k + 3])));
					}
					expect(copy.toString('latin1')).toBe(Buffer.concat(parts).toString('latin1'));
					expect([from, to]).toEqual([lines[2], lines.at(-1)]);
				},
			),
			{ numRuns: 2000 },
		);
		expect(listed).toBeGreaterThan(200);
		// More matching lines than a note shows: the first 100 listed.
		const many = noteOf(Array.from({ length: 150 }, (_, i) => `o ${i}`).join('\n'));
		const found = matchLinesOfBytes(many, 0, literal('o'), 0, true)!;
		expect([found.shown, found.total]).toEqual([100, 150]);
		expect(Buffer.from(found.raw!.listed!.bytes).toString().trim().split('\n').length).toBe(100);
	});

	it('gives the same answer turned off (the JavaScript search where there is no WebAssembly)', () => {
		const matcher = literal('obsidian');
		const text = '---\nk: v\n---\nObsidian\nx\r\nan obsidian vault\n';
		const on = matcher.onBytes!(noteOf(text), 3, 2);
		useLineScan(false);
		expect(lineScanKind()).toBe('js');
		const off = matcher.onBytes!(noteOf(text), 3, 2);
		expect(off).not.toHaveProperty('ends');
		const { ends, ...rest } = on!;
		expect(rest).toEqual(off);
		expect(ends).toEqual([21, 42]);
		expect(lineScanArea(10)).toBeNull();
	});
});
