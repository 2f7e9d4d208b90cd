import { describe, expect, it } from 'vitest';
import { parseQuery, search, SearchIndex } from '../../src/core/search/search';
import { MemorySource } from '../helpers/memory-source';

const NOTES: Record<string, string> = {
	'Garden/Compost.md': `---
tags: [Garden, soil/health]
---
# Compost

Intro line.

## Method
Turn the pile weekly so the compost heats up. #Outdoor
`,
	'Garden/Seeds.md': 'Seeds need warmth.\n',
};

describe('search hits carry what the faces show', () => {
	it('gives the 1-based file line of the excerpt and the note tags as written, so no face reads the note again', async () => {
		const source = new MemorySource(NOTES);
		const index = await SearchIndex.build(source);
		const r = await search(index, 'weekly pile');
		const hit = r.results[0]!;
		expect(hit.path).toBe('Garden/Compost.md');
		expect(hit.section).toBe('Method');
		expect(hit.line).toBe(9);
		expect(NOTES['Garden/Compost.md']!.split('\n')[hit.line! - 1]).toContain('Turn the pile weekly');
		expect(hit.tags).toEqual(['#Garden', '#soil/health', '#Outdoor']);
	});

	it('accepts an already parsed query and answers as for the same text', async () => {
		const source = new MemorySource(NOTES);
		const index = await SearchIndex.build(source);
		const text = 'path:Garden warmth';
		const fromText = await search(index, text);
		const fromParsed = await search(index, parseQuery(text));
		expect(fromParsed).toEqual(fromText);
		expect(fromParsed.results.map((h) => h.path)).toEqual(['Garden/Seeds.md']);
	});

	it('has no line when the hit matched by filter only (the note opens at its top)', async () => {
		const source = new MemorySource(NOTES);
		const index = await SearchIndex.build(source);
		const r = await search(index, 'path:Seeds');
		expect(r.results[0]!.line).toBeNull();
	});
});
