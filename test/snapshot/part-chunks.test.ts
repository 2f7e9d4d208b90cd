/**
 * A saved part handed to its store in pieces: the header block and each section as they are, not
 * copied into one array first (at 50k notes that copy was ~130 MB on top of the sections at the
 * server's peak). The bytes on disk are the ones the one-array encoding gives, and the Node
 * store writes the pieces one after another.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { partKey } from '../../src/core/snapshot/index-parts';
import { concatBytes } from '../../src/core/snapshot/bytes';
import type { NoteFingerprint } from '../../src/core/snapshot/codec';
import { decodePart, encodePart, encodePartChunksSteps, type PartInput } from '../../src/core/snapshot/part-codec';
import { searchSections } from '../../src/core/snapshot/search-part';
import { drain } from '../../src/core/steps';
import { FileSnapshotStore } from '../../src/node/snapshot/file-store';
import type { SnapshotStore } from '../../src/core/snapshot/port';
import { nodeCodecHost } from '../../src/node/snapshot/codec-host';
import { builtEngine, partsOn } from '../helpers/built-engine';

/** A part whose sections cross block boundaries and need padding (lengths not multiples of 8). */
function fixedPart(): PartInput {
	const stamps = new Map<string, NoteFingerprint>();
	for (let i = 0; i < 300; i++)
		stamps.set(`folder ${i % 7}/note ${i}.md`, {
			size: i,
			mtimeMs: 1e12 + i,
			ctimeMs: 1e12,
			ino: i * 3,
			racy: i % 50 === 0,
		});
	const big = new Uint8Array(40_003);
	for (let i = 0; i < big.length; i++) big[i] = (i * 2_654_435_761) >>> 24;
	return {
		kind: 'search',
		tool: 'vault-query 0.0.0',
		settings: '{"s":1}',
		stamps,
		sections: {
			meta: new TextEncoder().encode('{"terms":3}'),
			big,
			empty: new Uint8Array(0),
			odd: big.subarray(5, 12),
		},
	};
}

const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('a part in pieces', () => {
	it('encodes to the bytes the one-array encoding wrote before, whole or in pieces', () => {
		const whole = encodePart(fixedPart(), nodeCodecHost);
		const pieces = drain(encodePartChunksSteps(fixedPart(), nodeCodecHost));
		expect(pieces.length).toBeGreaterThan(3);
		expect(sha(concatBytes(pieces))).toBe(sha(whole));
		expect(sha(whole)).toBe('528415bb0edc529be065110857efc91380d66cc3676c3e05a78cedecb4d8992c');
	});

	it('reaches the Node store as its header and sections, never one array of the whole part, and the file holds the one-array bytes', async () => {
		const files: Record<string, string> = {};
		for (let i = 0; i < 400; i++)
			files[`folder ${i % 9}/note ${i}.md`] = `# Note ${i}\n\nword${i % 37} term${i} [[note ${(i + 1) % 400}]]\n`;
		const { engine, index, fingerprints } = await builtEngine(files, 'word1');
		const dir = mkdtempSync(join(tmpdir(), 'vq-part-chunks-'));
		onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
		const file = new FileSnapshotStore(dir);
		const handed: (Uint8Array | readonly Uint8Array[])[] = [];
		const store: SnapshotStore = {
			load: (key) => file.load(key),
			save: (key, bytes) => (handed.push(bytes), file.save(key, bytes)),
			clear: (key) => file.clear(key),
			info: (key) => file.info(key),
		};
		const parts = partsOn(store, fingerprints);
		expect(await parts.save(engine, ['search'], true)).toBeNull();

		expect(handed).toHaveLength(1);
		const pieces = handed[0]!;
		expect(pieces).not.toBeInstanceOf(Uint8Array);
		const list = pieces as readonly Uint8Array[];
		const onDisk = readFileSync(file.pathFor(partKey('/vault', 'search')));
		// The header block, the paths, the stamps and the index's own sections, each shorter than the part.
		expect(list.length).toBeGreaterThan(4);
		for (const piece of list) expect(piece.length).toBeLessThan(onDisk.length);
		const sections = searchSections(index, nodeCodecHost);
		const settings = parts.settingsOf('search', index.settings);
		const whole = encodePart(
			{ kind: 'search', tool: 't', settings, stamps: fingerprints, sections },
			nodeCodecHost,
		);
		expect(sha(onDisk)).toBe(sha(whole));
		expect(decodePart(whole, nodeCodecHost).paths).toEqual(Object.keys(files));
	});
});
