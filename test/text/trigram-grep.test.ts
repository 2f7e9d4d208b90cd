/**
 * grep and text-search through the engine with a trigram index answer exactly as without one, read
 * only the candidates, and never trust the index for a note an edit touched.
 */
import { describe, expect, it } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import type { StructuredQuery } from '../../src/core/query/types';
import { TrigramIndex } from '../../src/core/text/trigram';
import { MemorySource } from '../helpers/memory-source';

const FILES: Record<string, string> = {
	'a.md': '# Alpha\n\nThe Kelly criterion sizes positions.\n',
	'b.md': '# Beta\n\nCafe\u0301 notes, 笔记 and 🎉 emoji.\n',
	'c.md': '# Gamma\n\nNothing relevant here.\r\nSecond line.\r\n',
	'd/e.md': '# Delta\n\nkelly again, lower case.\n',
};

/** A source that counts reads. */
class CountingSource extends MemorySource {
	reads = 0;
	override read(path: string): Promise<string> {
		this.reads++;
		return super.read(path);
	}
}

/** An index of every note of `source`. */
async function indexAll(source: MemorySource): Promise<TrigramIndex> {
	const index = new TrigramIndex();
	for (const path of source.listNotes()) index.upsert(path, await source.read(path));
	return index;
}

const QUERIES: StructuredQuery[] = [
	{ type: 'grep', pattern: 'kelly' },
	{ type: 'grep', pattern: 'Kelly', caseSensitive: true },
	{ type: 'grep', pattern: 'café' },
	{ type: 'grep', pattern: '笔记' },
	{ type: 'grep', pattern: '(criterion|again)', regex: true },
	{ type: 'grep', pattern: 'line\\.$', regex: true },
	{ type: 'grep', pattern: '.*', regex: true },
	{ type: 'grep', pattern: 'absent word' },
];

describe('grep with a trigram index', () => {
	it('answers every query exactly as a full scan, reading fewer notes for a rare literal', async () => {
		const plain = new VaultEngine(new MemorySource(FILES));
		const source = new CountingSource(FILES);
		const indexed = new VaultEngine(source);
		indexed.trigrams = await indexAll(source);
		for (const query of QUERIES)
			expect(await indexed.query(query), JSON.stringify(query)).toEqual(await plain.query(query));
		source.reads = 0;
		await indexed.query({ type: 'grep', pattern: 'criterion' });
		expect(source.reads).toBe(1);
	});

	it('scans a note an edit touched instead of trusting the index', async () => {
		const source = new MemorySource(FILES);
		const engine = new VaultEngine(source);
		engine.trigrams = await indexAll(source);
		await engine.search('kelly'); // builds the search index, so the engine applies edits
		source.set('c.md', '# Gamma\n\nNow about Kelly too.\n');
		await engine.upsert('c.md');
		const result = await engine.query({ type: 'grep', pattern: 'kelly' });
		expect(result.results.map((r) => ('path' in r ? r.path : ''))).toEqual(['a.md', 'c.md', 'd/e.md']);
	});
});
