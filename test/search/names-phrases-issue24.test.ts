/**
 * Issue 24, search that says what it matched: a title is words however it starts (an emoji, a
 * symbol, a numbering or a bracketed label before it); a multi-word title or alias that a query
 * word names expands the query as a phrase, never word by word, so the count is the notes that
 * match what was asked; and what the typed words did comes before the hits.
 */
import { describe, expect, it } from 'vitest';
import { renderSearchMarkdown, search, SearchIndex } from '../../src/core/search/search';
import { termsOf } from '../../src/core/search/tokenize';
import { MemorySource } from '../helpers/memory-source';

describe('titles are words however they start', () => {
	it('a leading emoji or symbol separates words, in titles and bodies alike', () => {
		expect(termsOf('🔡STAR')).toEqual(['star']);
		expect(termsOf('📚Deep Work')).toEqual(['deep', 'work']);
		expect(termsOf('⭐️Favourites')).toEqual(['favourit']);
		expect(termsOf('Notes 🎬Films')).toEqual(['note', 'film']);
		// Astral letters are still letters: CJK extension B stays one word with its neighbours.
		expect(termsOf('𠀀𠀁').length).toBeGreaterThan(0);
	});

	it('STAR finds 🔡STAR by its title, ahead of a note with "star" inside a longer title', async () => {
		const source = new MemorySource({
			'🔡STAR.md': 'Situation, task, action, result: a way to answer interview questions.\n',
			'Notes/Star gazing in winter.md': 'We looked at the star Sirius and another star.\n',
			'📚Deep Work.md': 'A book about focus.\n',
			'01 Intro.md': 'Where to begin.\n',
			'[Book] Range.md': 'Generalists win in a wicked world.\n',
		});
		const index = await SearchIndex.build(source);
		const star = await search(index, 'STAR', { limit: 5, withBacklinks: false });
		expect(star.results[0]).toMatchObject({ path: '🔡STAR.md' });
		expect(star.results[0].tier).not.toBe('body');
		const deep = await search(index, 'deep work', { limit: 5, withBacklinks: false });
		expect(deep.results[0].path).toBe('📚Deep Work.md');
		expect(deep.results[0].tier).not.toBe('body');
		// A numbering or a bracketed label before the name is not part of the name people type.
		for (const [q, path] of [
			['intro', '01 Intro.md'],
			['range', '[Book] Range.md'],
		]) {
			const r = await search(index, q, { limit: 5, withBacklinks: false });
			expect(r.results[0]?.path, q).toBe(path);
			expect(r.results[0]?.tier, q).not.toBe('body');
		}
	});
});

describe('phrases stay phrases', () => {
	const files: Record<string, string> = {
		'Real-time collaboration.md': '---\naliases: [zork]\n---\nEditing one note together, live.\n',
		'Zork notes.md': 'The zork engine, once more, and zork again.\n',
	};
	for (let i = 0; i < 30; i++) files[`Diary ${i}.md`] = `Spent time on chores, entry ${i}.\n`;
	for (let i = 0; i < 5; i++) files[`Team ${i}.md`] = `Collaboration with the team, week ${i}.\n`;

	it('a word that names a note by alias brings in its title as a phrase: the count is the notes matching what was asked', async () => {
		const index = await SearchIndex.build(new MemorySource(files));
		const r = await search(index, 'zork qxqxq vlorpt', { limit: 10, withBacklinks: false });
		// "time" and "collaboration" are not searched on their own: only the alias's note and the notes with "zork".
		expect(r.results.map((h) => h.path).sort()).toEqual(['Real-time collaboration.md', 'Zork notes.md']);
		expect(r.matched).toBe(2);
	});

	it('the "most query words matched nothing" line comes before the hits', async () => {
		const index = await SearchIndex.build(new MemorySource(files));
		const r = await search(index, 'zork qxqxq vlorpt', { limit: 10, withBacklinks: false });
		const md = renderSearchMarkdown(r);
		const nothing = md.indexOf('Most query words matched nothing');
		expect(nothing).toBeGreaterThan(0);
		expect(nothing).toBeLessThan(md.indexOf('### 1.'));
	});
});
