/**
 * A build shared with a second counter (the plugin's second index worker): the later notes are
 * counted apart with their own dictionary and taken in their turn. The index must be the one a
 * single build makes — every term id, posting, record and answer — wherever the split falls, and
 * when the other side gives up midway (the build reads and counts the rest itself).
 */
import { describe, expect, it } from 'vitest';
import { DetachedCounter, type CountedElsewhere, type CountedNote } from '../../src/core/search/counted-notes';
import { search, SearchIndex } from '../../src/core/search/search';
import { resolveSearchSettings } from '../../src/core/search/settings';
import { MemorySource } from '../helpers/memory-source';
import { plainState } from '../helpers/plain-state';

/** Words of several scripts, compounds and code, so terms are added in many orders. */
const WORDS = [
	'vault',
	'index',
	'worker',
	'front-end',
	'snake_case',
	'camelCase',
	'Ünïcödé',
	'naïve',
	'café',
	'Поиск',
	'заметка',
	'搜索索引',
	'主线程',
	'ノート',
	'検索',
	'검색색인',
	'สวัสดีครับ',
	'https://example.com/a-b',
	'running',
	'runs',
	'ran',
	'graph',
	'links',
	'tag',
	'Obsidian',
	'plugin',
	'x1',
	'α-beta',
	'#nested/tag',
];

/** A deterministic generator (xorshift), so a failure names a seed to replay. */
function random(seed: number): () => number {
	let s = seed >>> 0 || 1;
	return () => {
		s ^= s << 13;
		s ^= s >>> 17;
		s ^= s << 5;
		return (s >>> 0) / 2 ** 32;
	};
}

/** `count` notes of frontmatter, headings, prose, code and new words (each note brings a few of its own). */
function vault(count: number, seed: number): Record<string, string> {
	const next = random(seed);
	const pick = (): string => WORDS[Math.floor(next() * WORDS.length)]!;
	const files: Record<string, string> = {};
	for (let n = 0; n < count; n++) {
		const own = `word${n}x${Math.floor(next() * 1000)}`;
		const prose = Array.from({ length: 5 + Math.floor(next() * 30) }, pick).join(' ');
		const text = [
			'---',
			`tags: [${pick().replace(/[^\p{L}]/gu, '') || 'misc'}]`,
			`aliases: [${own} alias]`,
			`status: ${next() < 0.5 ? 'open' : 'done'}`,
			'---',
			`# ${pick()} ${own}`,
			'',
			prose,
			'',
			'```ts',
			`const ${own} = "${pick()}";`,
			'```',
			`## ${pick()}`,
			`${prose.split(' ').reverse().join(' ')} ${own}`,
		].join('\n');
		files[`${['a', 'b/c', 'd'][n % 3]}/note ${String(n).padStart(3, '0')}.md`] = text;
	}
	return files;
}

/** The other side: a detached counter over the notes from `from` on, in walk order; it gives up at `giveUpAt` (a note's position) when given. */
function countedFrom(source: MemorySource, from: number, giveUpAt = Infinity): CountedElsewhere {
	const notes = source.listNotes();
	const mine = new Set(notes.slice(from));
	const counter = new DetachedCounter(resolveSearchSettings({}));
	const names: string[] = [];
	return {
		has: (path) => mine.has(path),
		take: async (path) => {
			if (notes.indexOf(path) >= giveUpAt) return null;
			const counted = counter.count({ path, text: await source.read(path), metadata: source.getMetadata(path) });
			// As a worker posts it: columns copied out of the counter's scratch, new terms as strings.
			const copy: CountedNote = {
				info: structuredClone(counted.info),
				terms: Uint32Array.from(counted.terms),
				tfs: Uint32Array.from(counted.tfs, (tf) => tf >>> 0),
				fieldLen: Uint32Array.from(counted.fieldLen),
			};
			names.push(...counter.newTerms());
			return copy;
		},
		term: (id) => names[id]!,
	};
}

/** Everything a saved part is made of, and the dictionary's ids before unused terms are squeezed out. */
function stateOf(index: SearchIndex): unknown {
	return { ids: [...index.index.terms.all()], state: plainState(index.index.exportState()), skipped: index.skipped };
}

const QUERIES = [
	'vault worker',
	'搜索',
	'front-end',
	'café naïve',
	'поиск',
	'running graph',
	'tag:#nested/tag',
	'[status:open] vault',
];

/** Each query's whole answer over an index. */
async function answers(index: SearchIndex): Promise<unknown[]> {
	const out: unknown[] = [];
	for (const q of QUERIES) out.push(await search(index, q, { limit: 20 }));
	return out;
}

describe('a build shared with a second counter', () => {
	it('is the single build, wherever the split falls', async () => {
		const files = vault(120, 7);
		const source = new MemorySource(files);
		const single = await SearchIndex.build(source, {}, { sliceMs: Infinity });
		const expected = stateOf(single);
		const expectedAnswers = await answers(single);
		expect(expectedAnswers.map((a) => (a as { matched: number }).matched).filter((n) => n > 0)).toHaveLength(
			QUERIES.length,
		);
		for (const from of [0, 1, 37, 60, 119, 120]) {
			const shared = await SearchIndex.build(
				source,
				{},
				{ sliceMs: Infinity, counted: countedFrom(source, from) },
			);
			expect(stateOf(shared), `split at ${from}`).toEqual(expected);
			expect(await answers(shared), `split at ${from}`).toEqual(expectedAnswers);
		}
	});

	it('is the single build when the other side gives up midway (the rest read and counted here)', async () => {
		const source = new MemorySource(vault(90, 11));
		const expected = stateOf(await SearchIndex.build(source, {}, { sliceMs: Infinity }));
		const shared = await SearchIndex.build(source, {}, { sliceMs: Infinity, counted: countedFrom(source, 30, 55) });
		expect(stateOf(shared)).toEqual(expected);
	});

	it('takes the notes counted apart instead of reading them', async () => {
		const source = new MemorySource(vault(40, 3));
		const read = source.read.bind(source);
		const counted = countedFrom(source, 25);
		const readHere: string[] = [];
		source.read = (path) => {
			readHere.push(path);
			return read(path);
		};
		const take = counted.take.bind(counted);
		let taken = 0;
		counted.take = (path) => {
			taken++;
			source.read = read; // the other side reads its own notes
			return take(path).finally(() => (source.read = (p) => (readHere.push(p), read(p))));
		};
		await SearchIndex.build(source, {}, { sliceMs: Infinity, readBatch: 1, counted });
		expect(taken).toBe(15);
		expect(readHere).toEqual(source.listNotes().slice(0, 25));
	});
});
