/**
 * Search's `"phrase"` and `/regex/` clauses with a trigram index answer exactly as without one
 * (random notes and queries: case, CJK, emoji, line breaks), and read only the candidates.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import { TrigramIndex } from '../../src/core/text/trigram';
import { MemorySource } from '../helpers/memory-source';

const WORDS = ['Kelly', 'kelly', 'criterion', 'Café', 'cafe\u0301', '笔记本', '🎉🎉', 'ΟΔΟΣ', 'alpha', 'beta'];
const SEPARATORS = [' ', '  ', '\n', '\r\n', ' - '];

const noteText = fc
	.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 12 })
	.map((parts) => `# Note\n\n${parts.map(([w, s]) => w + s).join('')}\n`);

/** A phrase of one to three words, or a regex over them. */
const clause = fc.oneof(
	fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((ws) => `"${ws.join(' ')}"`),
	fc.constantFrom('/kel+y/', '/(criterion|笔记)/', '/alpha\\s+beta/', '/caf(é|e)/', '-/beta/', '/ΟΔ.Σ/', '/.*/'),
);

/** An index of every note of `source`. */
async function indexAll(source: MemorySource): Promise<TrigramIndex> {
	const index = new TrigramIndex();
	for (const path of source.listNotes()) index.upsert(path, await source.read(path));
	return index;
}

/** A source that counts reads. */
class CountingSource extends MemorySource {
	reads = 0;
	override read(path: string): Promise<string> {
		this.reads++;
		return super.read(path);
	}
}

describe('search phrases and regexes with a trigram index', () => {
	it('answer every query exactly as a full read', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(noteText, { minLength: 1, maxLength: 8 }),
				fc.array(clause, { minLength: 1, maxLength: 2 }),
				fc.option(fc.constantFrom('kelly', 'alpha', 'note')),
				async (texts, clauses, word) => {
					const files = Object.fromEntries(texts.map((t, i) => [`n${i}.md`, t]));
					const plain = new VaultEngine(new MemorySource(files));
					const source = new MemorySource(files);
					const indexed = new VaultEngine(source);
					indexed.trigrams = await indexAll(source);
					const query = [...clauses, word ?? ''].join(' ').trim();
					expect(await indexed.search(query, { limit: 20 }), query).toEqual(
						await plain.search(query, { limit: 20 }),
					);
				},
			),
			{ numRuns: 150 },
		);
	});

	it('reads only the notes that can hold a regex', async () => {
		const files: Record<string, string> = {
			'a.md': '# A\n\nThe Kelly criterion.\n',
			'b.md': '# B\n\ncriterion and kelly.\n',
			'c.md': '# C\n\ncriterion alone.\n',
			'd.md': '# D\n\nnothing.\n',
		};
		const source = new CountingSource(files);
		const engine = new VaultEngine(source);
		engine.trigrams = await indexAll(source);
		await engine.search('kelly'); // the search index is built (reading every note) first
		source.reads = 0;
		const result = await engine.search('/kelly crit/');
		expect(result.results.map((r) => r.path)).toEqual(['a.md']);
		expect(source.reads).toBe(1); // a full read would read all four
		engine.trigrams = null;
		source.reads = 0;
		await engine.search('/kelly crit/');
		expect(source.reads).toBe(4);
	});
});
