import { describe, expect, it } from 'vitest';
import { search, SearchIndex } from '../../src/core/search/search';
import { openVault } from '../../src/node/vault-source';
import { EXAMPLE_VAULT } from '../helpers/paths';

// Ranked search reports links the way every other query does: body links, [[…]] properties and
// the bare names of the `links:` field (which Obsidian's link maps do not hold).
describe('links in ranked search', () => {
	it('backlinks: counts a note that links only through its links: field', async () => {
		const source = await openVault(EXAMPLE_VAULT);
		const index = await SearchIndex.build(source);
		const result = await search(index, 'backlinks:conventions', { source, limit: 50 });
		expect(result.results.map((r) => r.path)).toContain('insights/agents-read-before-they-search.md');
	});

	it('a hit carries the same backlinks and forward links as the structural queries report', async () => {
		const source = await openVault(EXAMPLE_VAULT);
		const index = await SearchIndex.build(source);
		const result = await search(index, 'conventions', { source, limit: 20 });
		const conventions = result.results.find((r) => r.path === 'conventions.md');
		expect(conventions?.backlinks).toContainEqual({
			path: 'insights/agents-read-before-they-search.md',
			source: 'frontmatter',
		});
		expect(conventions?.backlinks).toContainEqual({
			path: 'decisions/2026-06-20-adopt-obsidian-and-ob1-patterns.md',
			source: 'both',
		});
		const decision = (await search(index, 'Adopt Obsidian Vault', { source })).results.find((r) =>
			r.path.startsWith('decisions/2026'),
		);
		expect(decision?.forward_links).toEqual(['sdlc-modernization', 'conventions']);
	});
});

describe('backlinks: with an unknown note', () => {
	it('fails with near names instead of answering "nothing links there"', async () => {
		const source = await openVault(EXAMPLE_VAULT);
		const index = await SearchIndex.build(source);
		const result = await search(index, 'backlinks:convention agents', { source });
		expect(result.status).toBe('failed');
		expect(result.error).toMatch(
			/backlinks:convention: no note named "convention" in this vault; did you mean "conventions"/,
		);
	});
});
