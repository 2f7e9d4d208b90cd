/**
 * The saved search part, read lazily: a restored index answers like the index it was saved from
 * and like a fresh build after edits (dictionary lookups, prefix completions, typo corrections,
 * filters, names and backlinks included), and damage inside a part — found only when a query reads
 * the damaged block — makes the engine rebuild and answer correctly, never err or answer wrong.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import { SavedIndexDamaged } from '../../src/core/search/index-state';
import { search, SearchIndex } from '../../src/core/search/search';
import { decodePart, encodePart } from '../../src/core/snapshot/part-codec';
import { searchSections } from '../../src/core/snapshot/search-part';
import { restoreSearchIndex } from '../../src/core/snapshot/search-part-restore';
import { nodeCodecHost } from '../../src/node/snapshot/codec-host';
import { MemorySource } from '../helpers/memory-source';

/** Enough distinct words that the dictionary spans many blocks; Russian ones exercise prefix completion. */
const WORDS = Array.from(
	{ length: 400 },
	(_, i) => `слово${String.fromCharCode(1072 + (i % 32))}${String.fromCharCode(1072 + Math.floor(i / 32))}`,
).concat(Array.from({ length: 300 }, (_, i) => `term${i.toString(36)}x`));

function noteText(seed: number): string {
	const words = Array.from({ length: 12 }, (_, k) => WORDS[(seed * 31 + k * 17) % WORDS.length]);
	const fm =
		seed % 3 === 0 ? `---\ntags: [t${seed % 4}]\naliases: [Alias ${seed}]\nlinks: [n${(seed + 1) % 9}]\n---\n` : '';
	return `${fm}# Heading ${WORDS[seed % WORDS.length]}\n\n${words.join(' ')} [[n${(seed + 2) % 9}]]\n`;
}

const QUERIES = [
	'слово',
	'словоаа',
	'term1x term2x',
	'termzx',
	'tag:#t1 term',
	'alias 3',
	'backlinks:n3 term',
	'n4',
	'tern1x',
];

/** Save `si` to a part in memory and read it back lazily. */
function roundTrip(si: SearchIndex, bytes?: (b: Uint8Array) => void): SearchIndex {
	const encoded = encodePart(
		{ kind: 'search', tool: 't', settings: 's', stamps: new Map(), sections: searchSections(si, nodeCodecHost) },
		nodeCodecHost,
	);
	bytes?.(encoded);
	const restored = restoreSearchIndex(decodePart(encoded, nodeCodecHost), si.settings, nodeCodecHost);
	restored.source = si.source;
	return restored;
}

async function answers(si: SearchIndex): Promise<unknown[]> {
	const out: unknown[] = [];
	for (const q of QUERIES) {
		const r = await search(si, q, { limit: 8 });
		out.push([
			r.matched,
			r.terms,
			r.results.map((h) => [h.path, h.score, h.tier, h.backlinks, h.forward_links, h.title]),
		]);
	}
	return out;
}

/** Flip a bit in every block of the postings column: any term's slice then fails its check. */
function damagePostings(bytes: Uint8Array): void {
	const headerLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(16, true);
	const header = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + headerLength))) as {
		block: number;
		sections: Record<string, [number, number]>;
	};
	const base = 16 + Math.ceil((4 + headerLength) / 8) * 8;
	const [offset, length] = header.sections.postDocs!;
	for (let at = 0; at < length; at += header.block) bytes[base + offset + at]! ^= 0x40;
}

function files(seeds: readonly number[]): Record<string, string> {
	return Object.fromEntries(seeds.map((s, i) => [`n${i}.md`, noteText(s)]));
}

/** A restored index answers as the index it was saved from, and, after `edits` (note index, text seed), as a fresh build. */
async function restoredAgreesWithFresh(seeds: number[], edits: [number, number][]): Promise<void> {
	const source = new MemorySource(files(seeds));
	const built = await SearchIndex.build(source);
	const restored = roundTrip(built);
	expect(await answers(restored)).toEqual(await answers(built));
	// Edits applied to the restored index (new terms join the saved dictionary) rank as a fresh build.
	for (const [i, seed] of edits) {
		const path = `n${i}.md`;
		source.set(path, noteText(seed));
		restored.upsert({ path, text: noteText(seed), metadata: source.getMetadata(path) });
	}
	restored.invalidateLinks();
	if (restored.index.hasStalePostings) restored.index.compact();
	const fresh = await SearchIndex.build(source);
	expect(await answers(restored)).toEqual(await answers(fresh));
}

describe('saved search part', () => {
	it('a restored index answers exactly as the index it was saved from, and as a fresh build after edits', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(fc.nat(200), { minLength: 3, maxLength: 9 }),
				fc.array(fc.tuple(fc.nat(8), fc.nat(200)), { maxLength: 4 }),
				restoredAgreesWithFresh,
			),
			{ numRuns: 25 },
		);
	});

	it('an edited restored index expands a shared alias to its notes in walk order, as a fresh build does (a case the property found)', async () => {
		// Notes n1 then n0 are edited to share one alias: their new ids run n1, n0, a fresh build's n0, n1.
		await restoredAgreesWithFresh(
			[0, 0, 0],
			[
				[1, 3],
				[0, 3],
			],
		);
	});

	it('a damaged block is found when a query reads it; the engine then rebuilds and answers as a fresh build', async () => {
		const source = new MemorySource(files([1, 2, 3, 4, 5, 6, 7, 8]));
		const built = await SearchIndex.build(source);
		const damaged = roundTrip(built, damagePostings);
		await expect(search(damaged, 'term1x', { limit: 5 })).rejects.toBeInstanceOf(SavedIndexDamaged);

		const engine = new VaultEngine(source);
		const notes: string[] = [];
		let served = 0;
		engine.saved = {
			buildTrigrams: false,
			searchIndex: () =>
				Promise.resolve(served++ === 0 ? { index: roundTrip(built, damagePostings), changed: [] } : null),
			trigramIndex: () => Promise.resolve(null),
			damaged: (_kind, reason) => void notes.push(reason),
		};
		const answer = await engine.search('term1x term5x', { limit: 5 });
		expect(answer.results.map((h) => [h.path, h.score])).toEqual(
			(await search(built, 'term1x term5x', { limit: 5 })).results.map((h) => [h.path, h.score]),
		);
		expect(notes.join('\n')).toMatch(/failed its check/);
		expect(served).toBe(1);
	});
});
