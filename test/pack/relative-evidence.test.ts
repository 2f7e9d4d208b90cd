/**
 * Relevance is relative (issue 14, pack precision): a section that holds the question's words in
 * passing — one sentence in a note about something else — scores far below the note about the
 * topic, and is listed as partial, not relevant. The best section of every facet stays relevant.
 */
import { describe, expect, it } from 'vitest';
import { buildPack, type ContextPack } from '../../src/core/pack/pack';
import { SearchIndex } from '../../src/core/search/search';
import { MemorySource } from '../helpers/memory-source';

async function packOf(files: Record<string, string>, query: string): Promise<ContextPack> {
	const source = new MemorySource(files);
	return buildPack(source, await SearchIndex.build(source), { query, budget: 3000, builtAt: '2026-12-01' });
}

/** The paths of the sources a facet lists as relevant. */
function graded(pack: ContextPack, facet = 0): { relevant: string[] } {
	const path = (id: string): string => pack.pack.find((s) => s.id === id)?.path ?? id;
	return { relevant: pack.coverage[facet]!.sources.map(path) };
}

/** Notes on other topics, so the question's words are rare in the vault as they are in a real one. */
const OTHERS = {
	'Garden.md': '# Garden\n\nTomatoes need sun and water.\n',
	'Travel.md': '# Travel\n\nPack light; trains are faster than you think.\n',
	'Music.md': '# Music\n\nScales every morning, songs at night.\n',
};
const FILLER =
	'Each layout is saved with its panes, their sizes and the files they show. You can rename a layout, delete it, or make it the default one that opens with the app. Layouts sync between devices with the rest of the settings.';

describe('relative evidence', () => {
	it('a passing mention in a note about something else is partial; the note about the topic is relevant', async () => {
		const files = {
			'Bread.md':
				'# Sourdough starter\n\nA sourdough starter is flour and water fermented by wild yeast. Feed the sourdough starter every day with equal weights of flour and water; a ripe starter doubles in six hours.\n',
			'Kitchen.md': `# Kitchen layouts\n\n${FILLER} ${FILLER} The shelf by the window holds the sourdough starter jar, and I feed it there.\n`,
			...OTHERS,
		};
		const pack = await packOf(files, 'how do I feed a sourdough starter');
		const g = graded(pack);
		expect(g.relevant).toEqual(['Bread.md']);
		// Kitchen.md is partial padding at most (a weak partial section may be left out altogether).
		expect(
			pack.pack
				.filter((s) => s.path === 'Kitchen.md')
				.every((s) => pack.coverage[0]!.partial_sources.includes(s.id)),
		).toBe(true);
		expect(pack.coverage[0]!.status).toBe('covered');
	});

	it('two notes that both answer stay relevant', async () => {
		const files = {
			'Bread.md': '# Sourdough starter\n\nFeed the sourdough starter daily with flour and water.\n',
			'Baking notes.md':
				'# Feeding a starter\n\nI feed my sourdough starter each morning: equal flour and water, then it rests.\n',
			...OTHERS,
		};
		const g = graded(await packOf(files, 'how do I feed a sourdough starter'));
		expect(g.relevant.sort()).toEqual(['Baking notes.md', 'Bread.md']);
	});

	it('each facet keeps its own best section relevant, however weak against the other facet', async () => {
		const files = {
			'Sync.md':
				'# Sync encryption\n\nSync encrypts every note end to end before it leaves the device. Sync encryption uses AES-256; the password never leaves the device.\n',
			'Themes.md': `# Layouts\n\n${FILLER} A dark theme is one click away.\n`,
			...OTHERS,
		};
		const pack = await packOf(files, 'how does sync encryption work, and is there a dark theme?');
		expect(graded(pack, 0).relevant).toContain('Sync.md');
		expect(graded(pack, 1).relevant).toContain('Themes.md');
	});
});
