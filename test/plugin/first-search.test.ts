// @vitest-environment happy-dom
/**
 * The first search over a restored index (and any search after an edit) finds its hits'
 * backlinks without inverting the link maps of the whole vault — the one block that held
 * Obsidian's main thread for 0.4–3 s at 50k notes after a restart — and answers, backlinks
 * included, exactly as an engine built afresh. The work is counted, not timed: no inversion of
 * the link maps, and each note's link entry looked at once per search.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import { LinkGraph } from '../../src/core/link-graph';
import { SearchIndex } from '../../src/core/search/search-index';
import { engineConfigOf, mergeSettings } from '../../src/ui/plugin-settings';
import { FakeApp } from './fake-app';
import { startPlugin, unloadLoadedPlugins } from './harness';

const OLD = Date.parse('2026-01-01T00:00:00Z');
const FILES: Record<string, string> = {
	'notes/alpha.md': '---\ntags: [zebra]\nlinks: [gamma]\n---\nZebra migration notes. See [[beta]].',
	'beta.md': 'Stripes and savannah, [[notes/alpha]] and [[gamma]].',
	'gamma.md': '---\nup: "[[beta]]"\n---\n# Crossing\n\nZebra crossing rules, [[gamma]] itself.',
	'delta.md': 'Savannah zebra herds, see [[notes/alpha|alpha]] and ![[pic.png]].',
	'pic.png': 'PNG',
};
const QUERIES = ['zebra', 'savannah', 'crossing', 'backlinks:alpha', 'zebra backlinks:gamma'];

afterEach(() => {
	unloadLoadedPlugins();
	vi.restoreAllMocks();
	document.body.empty();
});

async function answers(search: (q: string) => Promise<{ results: { path: string; backlinks?: unknown }[] }>) {
	const out: Record<string, unknown> = {};
	for (const q of QUERIES) out[q] = (await search(q)).results.map((h) => [h.path, h.backlinks]);
	return out;
}

describe('the first search after a restart', () => {
	it('finds its hits’ backlinks without inverting the vault’s link maps, and answers as a fresh build', async () => {
		const app = new FakeApp(FILES, { mtimes: Object.fromEntries(Object.keys(FILES).map((p) => [p, OLD])) });
		app.indexAll();
		(await startPlugin(app)).unload();
		const build = vi.spyOn(SearchIndex, 'build');
		const plugin = await startPlugin(app);
		expect(build).not.toHaveBeenCalled(); // restored
		const inverted = vi.spyOn(LinkGraph.prototype, 'linkingMap');
		// Each note's link entry is read once per search (for all its hits together), counted through the map.
		const resolved = app.metadataCache.resolvedLinks;
		let reads = 0;
		app.metadataCache.resolvedLinks = new Proxy(resolved, {
			get: (target, key, receiver) => {
				if (typeof key === 'string' && key.endsWith('.md')) reads++;
				return Reflect.get(target, key, receiver) as unknown;
			},
		});
		const mine = await answers((q) => plugin.engine.search(q, { limit: 20 }));
		expect(inverted).not.toHaveBeenCalled();
		const notes = app.vault.getMarkdownFiles().length;
		expect(reads).toBeLessThanOrEqual(QUERIES.length * notes * 2); // the scan, plus each hit's own count
		app.metadataCache.resolvedLinks = resolved;
		const fresh = new VaultEngine(plugin.engine.source, engineConfigOf(mergeSettings(null)));
		expect(mine).toEqual(await answers((q) => fresh.search(q, { limit: 20 })));
		expect(Object.values(mine).some((hits) => JSON.stringify(hits).includes('frontmatter'))).toBe(true);
		plugin.unload();
	});
});
