// @vitest-environment happy-dom
/**
 * `api.search` answers with the CLI's JSON: `vault-query search "<q>" --json` is core's search
 * over a SearchIndex built on the Node adapter with default settings; the plugin's default
 * settings build the same index over Obsidian's metadata cache.
 */
import { describe, expect, it } from 'vitest';
import type { QueryResult } from '../../src/core/contract';
import { search, SearchIndex } from '../../src/core/search/search';
import { openVault } from '../../src/node/vault-source';
import { FakeApp } from '../plugin/fake-app';
import { EXAMPLE_VAULT, loadPlugin, settle } from '../plugin/harness';
import { ready } from './harness';

const QUERIES = [
	'copilot retention',
	'tag:#security copilot',
	'[status:confirmed]',
	'"trust centre" -kelly',
	'/FFIEC/',
	'backlinks:conventions',
	'position sizing kelly',
	'多语言',
	'path:skill-lab/ risk',
	'/([/',
];

/** Obsidian never shows dot-folders, so the CLI's "Not searched: … in .templates/" lines have no counterpart. */
function obsidianView(result: unknown): unknown {
	const r = structuredClone(result) as QueryResult<unknown>;
	r.limitations = r.limitations.filter((line) => !/^Not searched: \d+ note\(s\) in (.*\/)?\./.test(line));
	for (const s of r.skipped)
		s.reason = s.reason.replace(/^frontmatter not parsed \(.*?\);/, 'frontmatter not parsed (…);');
	return r;
}

describe('api.search', () => {
	it('returns exactly what the CLI prints with --json, for every kind of query', async () => {
		const node = await openVault(EXAMPLE_VAULT);
		const index = await SearchIndex.build(node);
		const { plugin } = await ready();
		for (const q of QUERIES) {
			const cli = JSON.parse(JSON.stringify(await search(index, q, { limit: 10 }))) as unknown;
			const api = await plugin.api.search(q);
			expect(obsidianView(api), q).toEqual(obsidianView(cli));
		}
	});

	it('takes a limit, and answers `failed` before layout-ready instead of waiting', async () => {
		const { plugin } = await ready();
		const two = await plugin.api.search('copilot', { limit: 2 });
		expect(two.results).toHaveLength(2);
		expect(two.query.limit).toBe(2);
		const cold = await loadPlugin(new FakeApp({ 'a.md': 'alpha' }));
		await settle();
		const early = await cold.api.search('alpha');
		expect(early.status).toBe('failed');
		expect(early.error).toContain('index is still building');
	});
});
