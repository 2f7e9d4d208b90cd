/**
 * The index worker decodes a batch of posted notes in one call (src/obsidian/batch-text.ts): the
 * texts it cuts apart must be exactly what decoding each note alone gives, as Obsidian reads a
 * file — BOMs, every script, malformed bytes and unreadable notes included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchTexts, utf16LengthOfUtf8 } from '../../src/obsidian/batch-text';
import type { PostedNote } from '../../src/obsidian/worker-protocol';

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
/** How a note is read alone: UTF-8, one leading BOM dropped, malformed bytes as U+FFFD. */
const alone = (bytes: Uint8Array): string => new TextDecoder('utf-8').decode(bytes);

/** Bytes that are mostly UTF-8's hard cases: lead bytes, tails and the bytes at their ranges' edges. */
const awkwardBytes = fc
	.array(
		fc.oneof(
			fc.integer({ min: 0, max: 255 }),
			fc.constantFrom(0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf),
			fc.constantFrom(0xe0, 0xed, 0xee, 0xef, 0xbb, 0xf0, 0xf4, 0xf5, 0xff),
		),
		{ maxLength: 24 },
	)
	.map((bytes) => Uint8Array.from(bytes));

/** A note's text over every plane: ASCII, accents, CJK, emoji (surrogate pairs), BOMs. */
const noteText = fc
	.array(
		fc.oneof(
			fc.string({ maxLength: 8 }),
			fc.constantFrom('é', 'ß', '中文', '日本語', '😀', '𝄞', '\uFEFF', '\r\n', '\u0000', '\uFFFD'),
			fc
				.integer({ min: 0, max: 0x10ffff })
				.filter((c) => c < 0xd800 || c > 0xdfff)
				.map((c) => String.fromCodePoint(c)),
		),
		{ maxLength: 12 },
	)
	.map((parts) => parts.join(''));

/** Notes as the main thread posts them: their bytes end to end in one buffer (null: unreadable). */
function posted(notes: readonly (Uint8Array | null)[]): PostedNote[] {
	const total = notes.reduce((n, b) => n + (b?.length ?? 0), 0);
	const buffer = new ArrayBuffer(total);
	let at = 0;
	return notes.map((bytes, i) => {
		let view: Uint8Array | null = null;
		if (bytes !== null) {
			view = new Uint8Array(buffer, at, bytes.length);
			view.set(bytes);
			at += bytes.length;
		}
		return {
			path: `n${i}.md`,
			bytes: view,
			error: bytes === null ? 'unreadable' : null,
			metadata: null,
			skipReason: null,
			frontmatterError: null,
		};
	});
}

describe('a batch of posted notes decoded in one call', () => {
	it("UTF-16 length of valid UTF-8 is the string's length; malformed bytes are told (as a strict decoder tells them)", () => {
		fc.assert(
			fc.property(noteText, (text) => {
				expect(utf16LengthOfUtf8(new TextEncoder().encode(text))).toBe(text.length);
			}),
			{ numRuns: 500 },
		);
		fc.assert(
			fc.property(awkwardBytes, (bytes) => {
				let decoded: string | null = null;
				try {
					decoded = strict.decode(bytes);
				} catch {
					decoded = null;
				}
				expect(utf16LengthOfUtf8(bytes)).toBe(decoded === null ? -1 : decoded.length);
			}),
			{ numRuns: 2000 },
		);
		const malformed = [
			[0xe0, 0x80, 0x80], // overlong
			[0xe0, 0x9f, 0xbf], // overlong
			[0xed, 0xa0, 0x80], // a surrogate
			[0xf0, 0x8f, 0xbf, 0xbf], // overlong
			[0xf4, 0x90, 0x80, 0x80], // past U+10FFFF
			[0xf5, 0x80, 0x80, 0x80],
			[0xc0, 0x80],
			[0xc1, 0xbf],
			[0x80],
			[0xe2, 0x82], // truncated
			[0xf0, 0x9f, 0x98], // truncated
		];
		for (const bytes of malformed) {
			expect(() => strict.decode(Uint8Array.from(bytes)), String(bytes)).toThrow();
			expect(utf16LengthOfUtf8(Uint8Array.from(bytes)), String(bytes)).toBe(-1);
		}
		expect(utf16LengthOfUtf8(Uint8Array.of(0xe0, 0xa0, 0x80, 0xed, 0x9f, 0xbf, 0xf4, 0x8f, 0xbf, 0xbf))).toBe(4);
	});

	it('each text is what decoding its note alone gives: BOMs dropped, any script, unreadable notes left out', () => {
		const note = fc.oneof(
			{ weight: 8, arbitrary: noteText.map((t) => new TextEncoder().encode(t)) },
			{ weight: 2, arbitrary: noteText.map((t) => new TextEncoder().encode(`\uFEFF${t}`)) },
			{ weight: 1, arbitrary: fc.constant(null) },
		);
		fc.assert(
			fc.property(fc.array(note, { minLength: 1, maxLength: 40 }), (notes) => {
				const batch = posted(notes);
				const texts = batchTexts(batch);
				if (notes.every((b) => b === null)) expect(texts).toBeNull();
				else expect(texts).toEqual(notes.map((b) => (b === null ? null : alone(b))));
			}),
			{ numRuns: 500 },
		);
	});

	it('a batch with a malformed note, or bytes not in one run of one buffer, is left to be decoded note by note', () => {
		const good = new TextEncoder().encode('plain text');
		expect(batchTexts(posted([good, Uint8Array.of(0x61, 0xe2, 0x82), good]))).toBeNull();
		expect(batchTexts(posted([good, Uint8Array.of(0xc0, 0x80)]))).toBeNull();
		const [a, b] = posted([good, good]);
		const apart = { ...b!, bytes: new Uint8Array(good) };
		expect(batchTexts([a!, apart])).toBeNull();
		expect(batchTexts(posted([good, good]))).toEqual(['plain text', 'plain text']);
	});
});
