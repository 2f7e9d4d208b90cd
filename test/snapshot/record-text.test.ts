/**
 * A saved part's records are encoded into chunks as they are made: the text section read back
 * (whole, or any range a store asks for) is the records' UTF-8 laid end to end, and the offsets
 * say where each one starts and ends — for any records and any chunk size.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sectionBytes, type SectionBytes } from '../../src/core/snapshot/part-codec';
import { RecordText } from '../../src/core/snapshot/record-text';

const utf8 = {
	encode: (text: string) => new TextEncoder().encode(text),
	encodeInto: (text: string, target: Uint8Array, at: number) =>
		new TextEncoder().encodeInto(text, target.subarray(at)).written,
	decode: (bytes: Uint8Array, start: number, end: number) => new TextDecoder().decode(bytes.subarray(start, end)),
};

/** What the two sections should hold: the records' bytes end to end, and where each ends. */
function expected(records: string[]): { text: Uint8Array; offsets: number[] } {
	const parts = records.map((r) => utf8.encode(r));
	const text = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	const offsets = [0];
	for (const p of parts) {
		text.set(p, offsets[offsets.length - 1]);
		offsets.push(offsets[offsets.length - 1]! + p.length);
	}
	return { text, offsets };
}

function written(records: string[], chunkBytes: number): Record<string, SectionBytes> {
	const out = new RecordText(records.length, utf8, chunkBytes);
	for (const record of records) out.add(record);
	return out.sections('doc');
}

describe('records encoded into chunks', () => {
	it('read back whole and in any 8-aligned range, equal the records end to end', () => {
		fc.assert(
			fc.property(
				fc.array(fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('', 'ä/ö', '漢字のノート', '🔡')), {
					maxLength: 40,
				}),
				fc.integer({ min: 1, max: 48 }),
				fc.nat(),
				fc.nat(),
				(records, chunkBytes, a, b) => {
					const want = expected(records);
					const sections = written(records, chunkBytes);
					const text = sections.docText!;
					expect(Buffer.from(sectionBytes(text)).equals(Buffer.from(want.text))).toBe(true);
					expect([...new Uint32Array(sectionBytes(sections.docOffsets!).slice().buffer)]).toEqual(
						want.offsets,
					);
					if (want.text.length === 0) return;
					const from = Math.floor((a % want.text.length) / 8) * 8;
					const length = b % (want.text.length - from + 1);
					const into = new Uint8Array(length);
					if (!(text instanceof Uint8Array)) text.fill(into, from);
					else into.set(text.subarray(from, from + length));
					expect(Buffer.from(into).equals(Buffer.from(want.text.subarray(from, from + length)))).toBe(true);
				},
			),
		);
	});

	it('gives a record longer than a chunk a chunk of its own, and keeps the ones around it whole', () => {
		const records = ['short', 'x'.repeat(1000), 'after'];
		const text = written(records, 64).docText!;
		expect(text).not.toBeInstanceOf(Uint8Array);
		expect(utf8.decode(sectionBytes(text), 0, text.length)).toBe(records.join(''));
	});

	it('refuses more or fewer records than it was told it would get', () => {
		const out = new RecordText(1, utf8);
		out.add('one');
		expect(() => out.add('two')).toThrow(RangeError);
		expect(() => new RecordText(2, utf8).sections('doc')).toThrow(RangeError);
	});
});
