import { describe, expect, it } from 'vitest';
import type { LinkResult } from '../../src/core/contract';
import { cli } from '../helpers/cli';
import { readerJson, SMALL_SCHEMA, tempVault } from '../reader/helpers';

/** A note whose links key mixes note names, a URL, a name no note has and a wikilink; another links to it from a property. */
const FILES: Record<string, string> = {
	'_meta/frontmatter-schema.md': SMALL_SCHEMA,
	'Notes/a.md':
		'---\nlinks: [b, "https://example.com/b", "mailto:x@example.com", no-such-note, "[[c]]"]\n---\nSee [[d]].\n',
	'Notes/b.md': 'B\n',
	'Notes/c.md': 'C\n',
	'Notes/d.md': 'D\n',
	'Notes/e.md': '---\nrelated: "[[a]]"\n---\nE\n',
};

describe('link meaning as Obsidian has it', () => {
	it('a links-key value counts only when it names a note: no URLs, no names that resolve nowhere', async () => {
		const vault = tempVault(FILES);
		const run = await cli(['links', 'a', '--vault', vault, '--json', '--no-cache']);
		const links = (JSON.parse(run.stdout) as { results: LinkResult[] }).results;
		expect(links.map((l) => [l.linkpath, l.resolved, l.source])).toEqual([
			['c', 'Notes/c.md', 'frontmatter'],
			['b', 'Notes/b.md', 'frontmatter'],
			['d', 'Notes/d.md', 'body'],
		]);
	});

	it('graph counts frontmatter links in both directions', async () => {
		const vault = tempVault(FILES);
		const { report } = await readerJson(['graph', 'a', '--folders', 'Notes', '--no-cache'], vault);
		const [a] = report.results;
		expect(a!.outbound?.map((l) => [l.linkpath, l.resolution, l.source])).toEqual([
			['c', 'vault', 'frontmatter'],
			['b', 'vault', 'frontmatter'],
			['d', 'vault', 'body'],
		]);
		expect(a!.outbound_count).toBe(3);
		expect(a!.inbound).toEqual([{ path: 'Notes/e.md', source: 'frontmatter' }]);
		expect(a!.inbound_count).toBe(1);
		const backlinks = await cli(['backlinks', 'b', '--vault', vault, '--json', '--no-cache']);
		expect(
			(JSON.parse(backlinks.stdout) as { results: { path: string; source: string }[] }).results.map((r) => [
				r.path,
				r.source,
			]),
		).toEqual([['Notes/a.md', 'frontmatter']]);
	});
});
