/**
 * The byte scan that tells whether a shown line needs the terminal's escapes (`escapedIn`,
 * src/cli/escape-scan.ts) finds exactly the characters `escapeControls` spells out: on every such
 * character's UTF-8, its neighbours and cut short at the line's ends, and on random lines. The
 * whole note's scan (`noteMayEscape`, sixteen bytes at a time) finds each of them wherever it
 * stands, so a note it calls clean has no line that needs them.
 */
import { describe, expect, it } from 'vitest';
import { escapeControls } from '../../src/core/display';
import { controlScanKind, escapedIn, noteMayEscape } from '../../src/cli/escape-scan';
import { escapesIn, lineScanArea } from '../../src/core/text/line-scan';

/** What the scan must say: escaping the line's text changes it (a line holds no newline and no CR of CRLF). */
function reference(bytes: Uint8Array, from: number, to: number): boolean {
	const text = Buffer.from(bytes.subarray(from, to)).toString('utf8');
	return escapeControls(text) !== text;
}

/** A repeatable stream of numbers below `n` from `seed` (a linear congruential generator). */
function randomBelow(seed: number): (n: number) => number {
	let state = seed;
	return (n) => {
		state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
		return state % n;
	};
}

/** Every code point near the escaped ranges, and a few far from them. */
const NEAR = [
	...Array.from({ length: 0xa0 }, (_, c) => c),
	0xa0,
	0xe9,
	0x2028,
	0x2029,
	0x2066 - 1,
	0x2066,
	0x2067,
	0x2068,
	0x2069,
	0x206a,
	0x202a - 1,
	0x202a,
	0x202b,
	0x202c,
	0x202d,
	0x202e,
	0x202f,
	0x2014,
	0x2019,
	0x2026,
	0x6587,
	0x1f600,
].filter((c) => c !== 0x0a && c !== 0x0d);

describe('the scan for characters the terminal escapes', () => {
	it('says what escaping the line would', () => {
		for (const c of NEAR) {
			for (const line of [
				String.fromCodePoint(c),
				`a${String.fromCodePoint(c)}b`,
				`é${String.fromCodePoint(c)}文`,
			]) {
				const bytes = Buffer.from(line, 'utf8');
				expect(escapedIn(bytes, 0, bytes.length), `U+${c.toString(16)} in ${JSON.stringify(line)}`).toBe(
					reference(bytes, 0, bytes.length),
				);
			}
		}
	});

	it('looks only inside the line: a character cut by its ends or beside it is not the line’s', () => {
		const bytes = Buffer.from('x\u202ey\u0085z\u001bw', 'utf8'); // x E2 80 AE y C2 85 z 1B w
		expect(escapedIn(bytes, 0, 1)).toBe(false);
		expect(escapedIn(bytes, 0, 3)).toBe(false); // E2 80 without its last byte
		expect(escapedIn(bytes, 0, 4)).toBe(true);
		expect(escapedIn(bytes, 4, 6)).toBe(false); // y C2, its continuation outside
		expect(escapedIn(bytes, 4, 7)).toBe(true);
		expect(escapedIn(bytes, 7, 8)).toBe(false);
		expect(escapedIn(bytes, 8, 9)).toBe(true);
	});

	it('agrees on random lines of mixed text', () => {
		const next = randomBelow(7);
		for (let t = 0; t < 2000; t++) {
			const line = Array.from({ length: 1 + next(12) }, () =>
				String.fromCodePoint(NEAR[next(NEAR.length)]!),
			).join('');
			const bytes = Buffer.from(`\n${line}\n`, 'utf8');
			expect(escapedIn(bytes, 1, bytes.length - 1)).toBe(reference(bytes, 1, bytes.length - 1));
		}
	});
});

/** `noteMayEscape` of a note's UTF-8. */
function noteScan(text: string): boolean {
	const bytes = Buffer.from(text, 'utf8');
	return noteMayEscape(bytes);
}

describe('the scan of a whole note for characters the terminal escapes', () => {
	it('finds each one at every place in a note, past each block of sixteen bytes and at the very end', () => {
		for (const c of NEAR) {
			const char = String.fromCodePoint(c);
			for (let at = 0; at < 40; at++) {
				const before = 'é\t—'.repeat(20).slice(0, at);
				for (const after of ['', 'x', '\r\nline two\n', 'y'.repeat(17)]) {
					const text = `${before}${char}${after}`;
					expect(noteScan(text), `U+${c.toString(16)} at ${at} before ${JSON.stringify(after)}`).toBe(
						escapeControls(char) !== char,
					);
				}
			}
		}
	});

	it('runs sixteen bytes at a time in Node (its WebAssembly module is valid)', () => {
		expect(controlScanKind()).toBe('simd');
	});

	it('calls clean a note of tabs, line ends, dashes, quotes and non-breaking spaces', () => {
		expect(noteScan('a\tb\r\n— “q” ’ \u00a0 \u00e9 \u2026\n'.repeat(500))).toBe(false);
		expect(noteScan('')).toBe(false);
	});

	it('finds one at the end of a note larger than its first memory', () => {
		const long = 'word — '.repeat(40_000);
		expect(noteScan(long)).toBe(false);
		expect(noteScan(`${long}\u001b[2J`)).toBe(true);
		expect(noteScan(`${long}\u202e`)).toBe(true);
		expect(noteScan('short\u0007')).toBe(true);
	});

	it('looks only between the lines shown: a character before, after or cut by their ends is not theirs', () => {
		const bytes = Buffer.from('\u001b[0m one \u202e\n shown line \n two \u0085', 'utf8');
		const latin1 = bytes.toString('latin1');
		const from = latin1.indexOf(' shown');
		const to = latin1.indexOf(' two');
		expect(noteMayEscape(bytes)).toBe(true);
		expect(noteMayEscape(bytes, from, to)).toBe(false);
		expect(noteMayEscape(bytes, 0, from)).toBe(true);
		expect(noteMayEscape(bytes, to, bytes.length)).toBe(true);
		expect(noteMayEscape(bytes, to, bytes.length - 1)).toBe(false); // C2 without its continuation
		expect(noteMayEscape(bytes, 1, from)).toBe(true); // U+202E
		expect(noteMayEscape(bytes, 1, from - 2)).toBe(false); // U+202E cut short
	});

	it('agrees with the line scan over random notes', () => {
		const next = randomBelow(11);
		for (let t = 0; t < 2000; t++) {
			// Mostly clean text, one character in ~60 from near the escaped ranges.
			const text = Array.from({ length: next(200) }, () =>
				next(60) === 0 ? String.fromCodePoint(NEAR[next(NEAR.length)]!) : 'ab—\n'[next(4)]!,
			).join('');
			const bytes = Buffer.from(text, 'utf8');
			expect(noteMayEscape(bytes)).toBe(escapedIn(bytes, 0, bytes.length));
			const from = next(bytes.length + 1);
			const to = from + next(bytes.length - from + 1);
			expect(noteMayEscape(bytes, from, to)).toBe(escapedIn(bytes, from, to));
			// Read into the line scan's memory, as a full answer reads its notes: looked at there.
			const area = lineScanArea(bytes.length)!;
			area.set(bytes);
			const inPlace = area.subarray(0, bytes.length);
			expect(noteMayEscape(inPlace, from, to)).toBe(escapedIn(bytes, from, to));
			expect(noteMayEscape(inPlace)).toBe(escapedIn(bytes, 0, bytes.length));
		}
		expect(escapesIn(Buffer.from('a\u001b'), 0, 2)).toBeNull();
	});
});
