/**
 * The byte scan that tells whether a shown line needs the terminal's escapes (`escapedIn`,
 * src/cli/stream.ts) finds exactly the characters `escapeControls` spells out: on every such
 * character's UTF-8, its neighbours and cut short at the line's ends, and on random lines.
 */
import { describe, expect, it } from 'vitest';
import { escapeControls } from '../../src/core/display';
import { escapedIn } from '../../src/cli/stream';

/** What the scan must say: escaping the line's text changes it (a line holds no newline and no CR of CRLF). */
function reference(bytes: Uint8Array, from: number, to: number): boolean {
	const text = Buffer.from(bytes.subarray(from, to)).toString('utf8');
	return escapeControls(text) !== text;
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
		let seed = 7;
		const next = (n: number): number => {
			seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
			return seed % n;
		};
		for (let t = 0; t < 2000; t++) {
			const line = Array.from({ length: 1 + next(12) }, () =>
				String.fromCodePoint(NEAR[next(NEAR.length)]!),
			).join('');
			const bytes = Buffer.from(`\n${line}\n`, 'utf8');
			expect(escapedIn(bytes, 1, bytes.length - 1)).toBe(reference(bytes, 1, bytes.length - 1));
		}
	});
});
