/**
 * The search part written as it is made: its posting columns, in term order, are read from the
 * index's own columns while the Node store writes them, never copied whole (two such copies were
 * ~90 MB at 50k notes at the server's peak). The file holds the bytes the one-array encoding
 * gives, and a write that fails leaves no partial file and the saved part as it was.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { partKey } from '../../src/core/snapshot/index-parts';
import { decodePart, encodePart, type SectionSource } from '../../src/core/snapshot/part-codec';
import { searchSections, searchSourcesSteps } from '../../src/core/snapshot/search-part';
import { SearchIndex } from '../../src/core/search/search';
import { drain } from '../../src/core/steps';
import { FileSnapshotStore } from '../../src/node/snapshot/file-store';
import { nodeCodecHost } from '../../src/node/snapshot/codec-host';
import { builtEngine, partsOn } from '../helpers/built-engine';
import { MemorySource } from '../helpers/memory-source';

const NOTES = 6000;

/** Notes enough for posting columns over 1 MB each (more than one streamed piece). */
function files(): Record<string, string> {
	const out: Record<string, string> = {};
	for (let i = 0; i < NOTES; i++) {
		const words = Array.from({ length: 60 }, (_, k) => `w${((i * 7919 + k * 104_729) % 40_009).toString(36)}`);
		out[`folder${i % 11}/note ${i}.md`] = `# Note ${i}\n\n${words.join(' ')} [[note ${(i + 1) % NOTES}]]\n`;
	}
	return out;
}

const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

function tempDir(): string {
	const dir = mkdtempSync(join(tmpdir(), 'vq-part-stream-'));
	onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
	return dir;
}

describe('the search part written as it is made', () => {
	it('reaches the file as the one-array encoding, its posting columns never handed whole', async () => {
		const { engine, index, fingerprints } = await builtEngine(files(), 'w1');
		const file = new FileSnapshotStore(tempDir());
		const handed: number[] = [];
		const store = Object.assign(Object.create(file) as FileSnapshotStore, {
			saveStreamed: (key: string, size: number, pieces: Iterable<Uint8Array>) =>
				file.saveStreamed(
					key,
					size,
					(function* () {
						for (const piece of pieces) {
							handed.push(piece.length);
							yield piece;
						}
					})(),
				),
		});
		const parts = partsOn(store, fingerprints);
		expect(await parts.save(engine, ['search'], true)).toBeNull();

		const onDisk = readFileSync(file.pathFor(partKey('/vault', 'search')));
		const whole = encodePart(
			{
				kind: 'search',
				tool: 't',
				settings: parts.settingsOf('search', index.settings),
				stamps: fingerprints,
				sections: searchSections(index, nodeCodecHost),
			},
			nodeCodecHost,
		);
		expect(sha(onDisk)).toBe(sha(whole));
		const column = decodePart(onDisk, nodeCodecHost).sectionLength('postDocs');
		expect(column).toBeGreaterThan(1 << 20);
		expect(handed.reduce((a, b) => a + b, 0)).toBe(onDisk.length);
		expect(handed).not.toContain(column);
		expect(Math.max(...handed)).toBeLessThan(column);
	});

	it('gives the same posting bytes whatever pieces they are read in', async () => {
		const si = await SearchIndex.build(new MemorySource(files()));
		const sources = drain(searchSourcesSteps(si, nodeCodecHost));
		const held = searchSections(si, nodeCodecHost);
		for (const name of ['postDocs', 'postTfs']) {
			const source = sources[name] as SectionSource;
			const out = new Uint8Array(source.length);
			for (let from = 0, k = 0; from < out.length; k++) {
				const n = Math.min(out.length - from, 4 * (1 + ((k * 7_919) % 5_000)));
				source.fill(out.subarray(from, from + n), from);
				from += n;
			}
			expect(sha(out), name).toBe(sha(held[name]!));
		}
	});

	it('shares a fresh index’s posting columns with its export instead of copying them', async () => {
		const si = await SearchIndex.build(new MemorySource(files()));
		const [a, b] = [si.index.exportState(), si.index.exportState()];
		expect(a.postDocs.buffer).toBe(b.postDocs.buffer);
		si.index.remove('folder0/note 0.md');
		const edited = si.index.exportState();
		expect(edited.postDocs.buffer).not.toBe(a.postDocs.buffer);
		expect(edited.postDocs.length).toBeLessThan(a.postDocs.length);
	});
});

describe('a streamed write that fails', () => {
	it('leaves no partial file and the saved snapshot as it was', async () => {
		const dir = tempDir();
		const store = new FileSnapshotStore(dir);
		const old = new Uint8Array([1, 2, 3, 4, 5]);
		await store.save('k', old);
		const failing = (function* () {
			yield new Uint8Array(1000).fill(7);
			throw new Error('a piece failed');
		})();
		await expect(store.saveStreamed('k', 2000, failing)).rejects.toThrow('a piece failed');
		await expect(store.saveStreamed('k', 2000, [new Uint8Array(1999)])).rejects.toThrow('not the 2000 announced');
		expect(readdirSync(dir)).toEqual([store.pathFor('k').slice(dir.length + 1)]);
		expect([...readFileSync(store.pathFor('k'))]).toEqual([...old]);
	});
});
