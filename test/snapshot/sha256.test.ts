/**
 * The cache's file names come from a plain-JS SHA-256 (so the CLI's entry need not load
 * node:crypto): it must give node:crypto's digest for any vault path, so names never change.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { snapshotFileName } from '../../src/node/snapshot/cache-dir';
import { sha256Hex } from '../../src/node/snapshot/sha256';

describe('sha256Hex', () => {
	it('equals node:crypto for any string: paths, CJK, emoji, lone surrogates, every length around a block boundary', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
				expect(sha256Hex(text)).toBe(createHash('sha256').update(text).digest('hex'));
			}),
			{ numRuns: 500 },
		);
		for (let n = 0; n < 200; n++) {
			const text = 'a'.repeat(n);
			expect(sha256Hex(text), `length ${n}`).toBe(createHash('sha256').update(text).digest('hex'));
		}
		expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
	});

	it('names a vault’s snapshot as before', () => {
		expect(snapshotFileName('/home/someone/Notes')).toBe(
			`${createHash('sha256').update('/home/someone/Notes').digest('hex').slice(0, 32)}.vqs`,
		);
	});
});
