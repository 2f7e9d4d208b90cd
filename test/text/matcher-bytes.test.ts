/**
 * A literal matched on a note's bytes (the full grep answer's path, core/text/matcher.ts `onBytes`)
 * finds the lines the text matcher finds — NFC, case folding, CRLF, multi-byte characters — or
 * hands the note back to the text matcher (null); it never answers differently.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BECOME_ASCII, compileMatcher, type TextMatcher } from '../../src/core/text/matcher';
import { lowerCase, nfc } from '../../src/core/text/normalize';
import { offsetOfLine } from '../../src/core/text/lines';

/** The note's text as the sources read it (lone CRs as line breaks) and its UTF-8 bytes as Latin-1. */
function forms(text: string): { text: string; latin1: string } {
	return {
		text: text.replace(/\r(?!\n)/g, '\n'),
		latin1: Buffer.from(text, 'utf8').toString('latin1'),
	};
}

function literal(pattern: string, caseSensitive = false): TextMatcher {
	const compiled = compileMatcher({ pattern, regex: false, caseSensitive });
	if (!compiled.ok) throw new Error(compiled.error);
	return compiled.matcher;
}

/** Characters a regular expression gives a meaning (the bytes are searched with one), in text and in needles. */
const REGEX_SPECIAL = ['.', '(x)', '*', '\\', '$^', 'a|b', '?+', '{1}', '/'];

/** Pieces of note text that make bytes and text differ if anything can. */
const PIECES = [
	'obsidian',
	'Obsidian',
	'OBSIDIAN',
	'ObSiDiAn',
	'note',
	'Kelvin \u212a',
	'k',
	'K',
	';',
	'\u037e',
	'`',
	'\u1fef',
	'é',
	'e\u0301',
	'obsidian\u0301',
	'obsidiané',
	'の',
	'은',
	'\u0316',
	'\u0323',
	'\u0338',
	'\u0bbe',
	'\u094d',
	'İstanbul',
	'ß',
	'文字',
	'😀',
	'Ünïcødé',
	' ',
	'\n',
	'\r\n',
	'\r',
	'\t',
	'[[x]]',
	...REGEX_SPECIAL,
	'\u017f',
	'\u00c0\u00ff\u00b5\u00df',
	'S',
];

const NEEDLES = [
	'obsidian',
	'OBSIDIAN',
	'note',
	'k',
	'K',
	';',
	'`',
	'an ob',
	'e',
	'i',
	'<',
	'n',
	's',
	'[[',
	...REGEX_SPECIAL,
];

describe('a literal on bytes', () => {
	it('maps no character but those of BECOME_ASCII to ASCII under NFC or lower case', () => {
		const found = new Map<string, Set<string>>();
		for (let cp = 0x80; cp < 0x110000; cp++) {
			if (cp >= 0xd800 && cp <= 0xdfff) continue;
			const ch = String.fromCodePoint(cp);
			for (const form of [nfc(ch), lowerCase(nfc(ch))])
				for (const c of form)
					if (c.charCodeAt(0) < 0x80) {
						const bytes = Buffer.from(ch, 'utf8').toString('latin1');
						if (!found.has(c)) found.set(c, new Set());
						found.get(c)!.add(bytes);
					}
		}
		const expected = new Map(Object.entries(BECOME_ASCII).map(([c, bytes]) => [c, new Set([bytes])]));
		expect(found).toEqual(expected);
	});

	it('relies on NFC joining to a letter only the combining marks that follow it', () => {
		const joined: string[] = [];
		for (let cp = 0x80; cp < 0x110000; cp++) {
			if (cp >= 0xd800 && cp <= 0xdfff) continue;
			const ch = String.fromCodePoint(cp);
			if (/^\p{M}/u.test(ch)) continue;
			// A character that is not a mark neither joins a letter nor lets a mark after it join the letter.
			for (const text of [`e${ch}`, `e${ch}\u0301`, `<${ch}\u0338`])
				if (!text.normalize('NFC').startsWith(text[0]!)) joined.push(cp.toString(16));
		}
		expect(joined).toEqual([]);
	});

	it('relies on a case-insensitive regex matching an ASCII character only where Latin-1 lower case would', () => {
		// The bytes are searched with /needle/gi, not lower-cased: both must find the same bytes.
		for (let ascii = 0x20; ascii < 0x7f; ascii++) {
			const c = String.fromCharCode(ascii);
			const re = new RegExp(c.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), 'i');
			for (let byte = 0; byte < 256; byte++) {
				const b = String.fromCharCode(byte);
				expect(re.test(b), `${c} against byte ${byte}`).toBe(b.toLowerCase() === c.toLowerCase());
			}
		}
	});

	it('finds the same lines as the text, or hands the note to the text matcher', () => {
		let onBytes = 0;
		fc.assert(
			fc.property(
				fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }),
				fc.constantFrom(...NEEDLES),
				fc.boolean(),
				fc.nat(3),
				fc.nat(4),
				(pieces, needle, caseSensitive, fromLine, before) => {
					const { text, latin1 } = forms(pieces.join(''));
					const matcher = literal(needle, caseSensitive);
					const bytes = matcher.onBytes?.(latin1, fromLine, before) ?? null;
					if (bytes === null) return;
					onBytes++;
					const { starts, firstStarts, ...hits } = bytes;
					expect(hits).toEqual(matcher.matchingLines(text, fromLine));
					// Each matching line's start in the bytes: the start of the note or just after a line end, that many lines in.
					expect(starts).toEqual(hits.lines.map((line) => offsetOfLine(latin1, line)));
					// With lines before asked, where each match's first line of context starts (never before fromLine).
					expect(firstStarts).toEqual(
						before === 0
							? undefined
							: hits.lines.map((line) => offsetOfLine(latin1, Math.max(fromLine, line - before))),
					);
				},
			),
			{ numRuns: 3000 },
		);
		// Most notes are answered on bytes: the check above is not vacuous.
		expect(onBytes).toBeGreaterThan(1000);
	});

	it('hands back the notes it cannot answer on bytes', () => {
		const k = literal('kelvin');
		expect(k.onBytes?.(forms('\u212aelvin').latin1, 0)).toBeNull();
		expect(k.matchingLines('\u212aelvin', 0).lines).toEqual([0]);
		const cafe = literal('cafe');
		expect(cafe.onBytes?.(forms('cafe\u0301').latin1, 0)).toBeNull();
		expect(cafe.matchingLines('cafe\u0301', 0).lines).toEqual([]);
		// A character after a match that is not a combining mark keeps the note on bytes.
		expect(literal('obsidian').onBytes?.(forms('Obsidianの\nx').latin1, 0)).toEqual({
			lines: [0],
			cutLines: 0,
			starts: [0],
		});
		expect(literal('b').onBytes?.(forms('a\rb').latin1, 0)).toBeNull();
		expect(literal('b').onBytes?.(forms('a\r\nb').latin1, 0)).toEqual({ lines: [1], cutLines: 0, starts: [3] });
	});

	it('is not offered for a pattern that is not ASCII, nor for a regex', () => {
		expect(literal('café').onBytes).toBeNull();
		expect(literal('文字').onBytes).toBeNull();
		const regex = compileMatcher({ pattern: 'obs.dian', regex: true, caseSensitive: false });
		expect(regex.ok && regex.matcher.onBytes).toBeNull();
	});
});
