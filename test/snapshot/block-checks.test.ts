/**
 * A saved part's blocks are checked the first time a read lands in them, and only then: re-indexing
 * a note looks up dozens of dictionary blocks, and a second check of a block already read was most
 * of a restart's reconcile at 50k notes. A damaged block is still refused on its first read.
 */
import { describe, expect, it } from 'vitest';
import type { NoteFingerprint } from '../../src/core/snapshot/codec';
import { decodePart, encodePart, type PartInput } from '../../src/core/snapshot/part-codec';
import type { CodecHost } from '../../src/core/snapshot/port';
import { nodeCodecHost } from '../../src/node/snapshot/codec-host';

/** A part with one section of 100 kB (seven blocks of 16 kB). */
function part(): PartInput {
	const stamps = new Map<string, NoteFingerprint>([
		['a.md', { size: 1, mtimeMs: 1, ctimeMs: 1, ino: 0, racy: false }],
	]);
	const big = new Uint8Array(100_000);
	for (let i = 0; i < big.length; i++) big[i] = (i * 2_654_435_761) >>> 24;
	return { kind: 'search', tool: 't', settings: 's', stamps, sections: { big } };
}

/** A host that counts the checksums it computes. */
function counting(): { host: CodecHost; checks: () => number } {
	let checks = 0;
	return {
		host: { ...nodeCodecHost, checksum: (bytes) => (checks++, nodeCodecHost.checksum!(bytes)) },
		checks: () => checks,
	};
}

describe('block checks of a saved part', () => {
	it('checks each block once however often reads land in it, and gives the same bytes', () => {
		const input = part();
		const big = input.sections.big as Uint8Array;
		const bytes = encodePart(input, nodeCodecHost);
		const { host, checks } = counting();
		const decoded = decodePart(bytes, host);
		const before = checks();
		const first = decoded.range('big', 20_000, 20_100).slice();
		expect(checks() - before).toBe(1);
		const again = decoded.range('big', 20_050, 20_200);
		const spanning = decoded.range('big', 16_000, 33_000); // blocks 0, 1 and 2: only 0 and 2 are new
		expect(checks() - before).toBe(3);
		expect(first).toEqual(big.subarray(20_000, 20_100));
		expect(again).toEqual(big.subarray(20_050, 20_200));
		expect(spanning).toEqual(big.subarray(16_000, 33_000));
	});

	it('refuses a damaged block on its first read, and every read that lands in it after', () => {
		const bytes = encodePart(part(), nodeCodecHost).slice();
		const decoded = decodePart(bytes, nodeCodecHost);
		const [from] = decoded.span('big');
		bytes[from + 40_000] = bytes[from + 40_000]! ^ 0xff; // block 2
		expect(decoded.range('big', 0, 100)).toHaveLength(100);
		expect(() => decoded.range('big', 39_990, 40_010)).toThrow(/block 2 of big failed its check/);
		expect(() => decoded.range('big', 40_000, 40_001)).toThrow(/block 2 of big failed its check/);
	});
});
