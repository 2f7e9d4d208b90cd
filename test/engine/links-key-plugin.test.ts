// @vitest-environment happy-dom
/**
 * Issue 9 case 5: the links key reaches ranked search in the plugin. With the key set to
 * `related`, "Show backlinks" (the structural query) and the modal's `backlinks:` agree, and
 * changing the key rebuilds the search index.
 */
import { describe, expect, it } from 'vitest';
import type { NoteResult } from '../../src/core/contract';
import { ready } from '../ui/harness';

const VAULT = {
	'Topic.md': '# Topic\n\nThe subject.\n',
	'linker.md': '---\nrelated: [Topic]\n---\nAbout the subject, linked only through the related field.\n',
	'other.md': '---\nlinks: [Topic]\n---\nLinked through the default field.\n',
};

/** Paths of the structural backlinks and of the modal's `backlinks:` search. */
async function bothBacklinks(r: Awaited<ReturnType<typeof ready>>): Promise<{ query: string[]; search: string[] }> {
	const query = await r.plugin.api.query({ type: 'backlinks', target: 'Topic' });
	const found = await r.plugin.faces.search('backlinks:Topic');
	return {
		query: (query.results as NoteResult[]).map((n) => n.path).sort(),
		search: found.results.map((h) => h.path).sort(),
	};
}

describe('issue 9 case 5: the links key reaches search', () => {
	it('with the key set to "related", the modal\'s backlinks: finds what "Show backlinks" finds', async () => {
		const r = await ready(VAULT, { linksKey: 'related' });
		expect(await bothBacklinks(r)).toEqual({ query: ['linker.md'], search: ['linker.md'] });
		r.plugin.unload();
	});

	it('changing the key rebuilds the search index', async () => {
		const r = await ready(VAULT);
		expect(await bothBacklinks(r)).toEqual({ query: ['other.md'], search: ['other.md'] });
		const before = await r.plugin.engine.searchIndex();
		await r.plugin.saveData({ linksKey: 'related' });
		await r.plugin.loadSettings();
		expect(await r.plugin.engine.searchIndex()).not.toBe(before);
		expect(await bothBacklinks(r)).toEqual({ query: ['linker.md'], search: ['linker.md'] });
		r.plugin.unload();
	});
});
