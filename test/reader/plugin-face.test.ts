// @vitest-environment happy-dom
/**
 * The plugin face answers like the CLI: `runReader` over the Obsidian adapter (on the fake App,
 * whose metadata cache is filled by the Node parser) against `runReader` over a Node vault. Only
 * what the faces name differently is normalised: the vault (a name inside Obsidian, an absolute
 * path in Node), the schema note's mtime date, and why YAML failed (Obsidian does not say).
 */
import { describe, expect, it } from 'vitest';
import { runReader, type ReaderReport, type ReaderRequest } from '../../src/core/reader/index';
import { openVault } from '../../src/node/vault-source';
import { FakeApp } from '../plugin/fake-app';
import { EXAMPLE_VAULT, loadPlugin, settle } from '../plugin/harness';

/** The report with each face's vault name replaced, as JSON. */
function normalised(report: ReaderReport): unknown {
	const vault = report.vault_path;
	const text = JSON.stringify(report)
		.replaceAll(vault, '<vault>')
		.replace(/"modified":"[^"]*"/, '"modified":"<date>"');
	return JSON.parse(text.replace(/frontmatter not parsed \(.*?\);/g, 'frontmatter not parsed (…);')) as unknown;
}

const REQUESTS: ReaderRequest[] = [
	{ operation: 'filter', where: ['rating>=7'], folders: ['all'] },
	{
		operation: 'filter',
		where: { domain: 'investing', confidence: '>=likely' },
		max_staleness_days: 60,
		today: '2026-06-30',
	},
	{ operation: 'lookup', slug: 'position-sizing', folders: ['sources', 'skill-lab'], full_body: true },
	{ operation: 'graph', slug: 'dcf-valuation', known_skill_refs: ['excel-modeling'] },
	{ operation: 'text-search', pattern: 'discount', folders: ['all'] },
	{ operation: 'filter', where: ['Domain=investing'] },
];

describe('plugin face: runReader over ObsidianNoteSource', () => {
	it('answers every operation as the Node face does (types.json and parseYaml through the port)', async () => {
		const node = await openVault(EXAMPLE_VAULT);
		const app = FakeApp.fromFolder(EXAMPLE_VAULT);
		const plugin = await loadPlugin(app);
		app.layoutReady();
		app.indexAll();
		await settle();
		for (const request of REQUESTS) {
			const [fromNode, fromPlugin] = [
				await runReader(node, request),
				await runReader(plugin.engine.source, request),
			];
			expect(normalised(fromPlugin), JSON.stringify(request)).toEqual(normalised(fromNode));
		}
		const failed = await runReader(plugin.engine.source, {
			operation: 'filter',
			where: ['type=claim'],
			schema: 'missing.md',
		});
		expect(failed.error).toContain(`schema: ${app.vault.getName()}/missing.md not found. `);
		expect(failed.error).toContain('"Copy schema draft" command');
	});
});
