/**
 * A note's upsert into a restored index in steps that each decode a bounded number of the saved
 * dictionary's blocks (engine/apply.ts `upsertSteps`, TermDictionary.decodeAtMost): a long note
 * whose words lie in many blocks not read yet takes several steps, none decoding more than the
 * bound; the index is unchanged until the last step; and the index answers exactly as one
 * upserted in one go and as a fresh build.
 */
import { describe, expect, it } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import { upsertSteps } from '../../src/core/engine/apply';
import { search, SearchIndex } from '../../src/core/search/search';
import { decodePart, encodePart } from '../../src/core/snapshot/part-codec';
import { DICT_BLOCK, searchSections } from '../../src/core/snapshot/search-part';
import { restoreSearchIndex } from '../../src/core/snapshot/search-part-restore';
import { nodeCodecHost } from '../../src/node/snapshot/codec-host';
import { MemorySource } from '../helpers/memory-source';

/** Distinct words (letters only, so each is its own term): 2,000 of them fill ~31 dictionary blocks. */
const WORDS = Array.from(
	{ length: 2000 },
	(_, i) => `w${i.toString(26).replace(/\d/g, (d) => 'qrstuvwxyz'[Number(d)]!)}z`,
);

/** Notes of 40 words each: together they use every word. */
function files(): Record<string, string> {
	const out: Record<string, string> = {};
	for (let n = 0; n < 50; n++) out[`n${n}.md`] = `# Note ${n}\n\n${WORDS.slice(n * 40, n * 40 + 40).join(' ')}\n`;
	return out;
}

/** A long note using a word of every block, and a few new ones. */
const LONG = `# Long\n\n${WORDS.filter((_, i) => i % 7 === 0).join(' ')} brandnewword anothernewword\n`;

/** `si` saved and read back lazily, with a count of the dictionary blocks read. */
function restored(si: SearchIndex): { index: SearchIndex; blocksRead: () => number } {
	const encoded = encodePart(
		{ kind: 'search', tool: 't', settings: 's', stamps: new Map(), sections: searchSections(si, nodeCodecHost) },
		nodeCodecHost,
	);
	const part = decodePart(encoded, nodeCodecHost);
	let reads = 0;
	const range = part.range.bind(part);
	part.range = (name, from, to) => {
		if (name === 'dictText') reads++;
		return range(name, from, to);
	};
	const index = restoreSearchIndex(part, si.settings, nodeCodecHost);
	index.source = si.source;
	return { index, blocksRead: () => reads };
}

const QUERIES = ['brandnewword', 'wqz', `${WORDS[7]} ${WORDS[700]}`, 'long', 'note'];

async function answers(si: SearchIndex): Promise<unknown[]> {
	si.invalidateLinks();
	const out: unknown[] = [];
	for (const q of QUERIES) {
		const r = await search(si, q, { limit: 10, prefixLast: true });
		out.push([r.matched, r.terms, r.results.map((h) => [h.path, h.score, h.title])]);
	}
	return out;
}

describe('upsert in steps of a bounded dictionary decode', () => {
	it('a long note decodes at most the bound per step, changes nothing before its last step, and answers as a fresh build', async () => {
		const source = new MemorySource(files());
		const built = await SearchIndex.build(source);
		expect(Math.ceil(built.index.terms.size / DICT_BLOCK)).toBeGreaterThan(25);
		const before = await answers(restored(built).index);

		const stepped = restored(built);
		source.set('long.md', LONG);
		const note = { path: 'long.md', text: LONG, metadata: source.getMetadata('long.md') };
		const steps = upsertSteps(stepped.index, note, 4);
		const perStep: number[] = [];
		for (;;) {
			const read = stepped.blocksRead();
			const done = steps.next().done === true;
			perStep.push(stepped.blocksRead() - read);
			if (done) break;
			// Between two steps the index is as it was: searches answer as before the upsert.
			if (perStep.length === 2) expect(await answers(stepped.index)).toEqual(before);
		}
		expect(Math.max(...perStep)).toBeLessThanOrEqual(4);
		expect(perStep.length).toBeGreaterThanOrEqual(Math.ceil(perStep.reduce((a, b) => a + b, 0) / 4));
		expect(perStep.length).toBeGreaterThan(5);

		const atOnce = restored(built);
		atOnce.index.upsert(note);
		const fresh = await SearchIndex.build(source);
		expect(await answers(stepped.index)).toEqual(await answers(atOnce.index));
		expect(await answers(stepped.index)).toEqual(await answers(fresh));
		// Past the steps, lookups decode freely again.
		expect(() => stepped.index.upsert({ ...note, text: `${LONG}\n${WORDS.join(' ')}` })).not.toThrow();
	});

	it('a note whose words lie in blocks read already is one step', async () => {
		const source = new MemorySource(files());
		const { index } = restored(await SearchIndex.build(source));
		const text = `# Again\n\n${WORDS.slice(0, 30).join(' ')}\n`;
		index.upsert({ path: 'warm.md', text, metadata: null });
		expect([...upsertSteps(index, { path: 'again.md', text, metadata: null }, 1)]).toHaveLength(0);
	});

	it('the engine runs a change in the steps it is given, and never lets the bound escape', async () => {
		const source = new MemorySource(files());
		const built = await SearchIndex.build(source);
		const engine = new VaultEngine(source);
		engine.saved = {
			buildTrigrams: false,
			searchIndex: () => Promise.resolve({ index: restored(built).index, changed: [] }),
			trigramIndex: () => Promise.resolve(null),
		};
		let pauses = 0;
		engine.changeSteps = {
			run: (steps) => {
				for (let r = steps.next(); ; r = steps.next()) {
					if (r.done === true) return Promise.resolve(r.value);
					pauses++;
				}
			},
			blocks: 2,
		};
		await engine.search('note');
		source.set('long.md', LONG);
		await engine.upsert('long.md');
		expect(pauses).toBeGreaterThan(5);
		const answer = await engine.search('brandnewword');
		expect(answer.results.map((h) => h.path)).toEqual(['long.md']);
		const fresh = new VaultEngine(source);
		expect((await engine.search(`${WORDS[7]} ${WORDS[700]}`)).results).toEqual(
			(await fresh.search(`${WORDS[7]} ${WORDS[700]}`)).results,
		);
		// Past the change, a search decodes what it needs (a prefix over blocks not read yet).
		await expect(engine.search('wr', { prefixLast: true })).resolves.toMatchObject({ status: 'success' });
	});
});
