// @vitest-environment happy-dom
/**
 * The schema-strict reader inside the plugin: one API method per operation returning the same
 * report as the CLI, and the "Filter notes by properties" command showing results and the
 * retrieval report.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runReader, type ReaderReport, type ReaderRequest } from '../../src/core/reader/index';
import { filterRequestFromText } from '../../src/ui/filter-modal';
import { openVault } from '../../src/node/vault-source';
import { FakeApp } from './fake-app';
import { EXAMPLE_VAULT, loadPlugin, settle } from './harness';
import type VaultQueryPlugin from '../../src/main';

async function ready(): Promise<{ app: FakeApp; plugin: VaultQueryPlugin }> {
	const app = FakeApp.fromFolder(EXAMPLE_VAULT);
	const plugin = await loadPlugin(app);
	app.layoutReady();
	app.indexAll();
	await settle();
	return { app, plugin };
}

/**
 * The parts of a report that must agree between faces: the vault root differs (a name vs a
 * folder, also inside the graph's absolute paths), and Obsidian gives no YAML error detail, so only that a note's frontmatter failed counts.
 */
function comparable(report: ReaderReport): Record<string, unknown> {
	const { vault_path: root, schema: _schema, ...rest } = report;
	return JSON.parse(
		JSON.stringify(rest)
			.split(`"${root}/`)
			.join('"<vault>/')
			.replace(/frontmatter not parsed \([^)]*\)/g, 'frontmatter not parsed (…)'),
	) as Record<string, unknown>;
}

afterEach(() => {
	document.body.empty();
});

describe('reader API', () => {
	it('filter, lookup, graph and textSearch return the CLI face report', async () => {
		const { plugin } = await ready();
		const node = await openVault(EXAMPLE_VAULT);
		const settings = plugin.engine.engine.settings.reader;
		const calls: [() => Promise<ReaderReport>, ReaderRequest][] = [
			[
				() => plugin.api.filter(['type=claim'], { folders: ['all'], today: '2026-06-30' }),
				{ operation: 'filter', where: ['type=claim'], folders: ['all'], today: '2026-06-30' },
			],
			[() => plugin.api.lookup('discount-rate'), { operation: 'lookup', slug: 'discount-rate' }],
			[() => plugin.api.graph('discount-rate'), { operation: 'graph', slug: 'discount-rate' }],
			[
				() => plugin.api.textSearch('discount rate', { folders: ['all'] }),
				{ operation: 'text-search', pattern: 'discount rate', folders: ['all'] },
			],
		];
		for (const [call, request] of calls) {
			const fromPlugin = await call();
			const fromCli = await runReader(node, request, settings);
			expect(fromPlugin.status).not.toBe('failed');
			expect(comparable(fromPlugin)).toEqual(comparable(fromCli));
		}
	});

	it('a misspelled field is rejected with the valid names, as in the CLI', async () => {
		const { plugin } = await ready();
		const report = await plugin.api.filter({ Confidence: 'likely' });
		expect(report.status).toBe('failed');
		expect(report.error).toMatch(/unknown field "Confidence".*did you mean "confidence"/);
	});

	it('before layout-ready the reader answers "index is still building"', async () => {
		const app = FakeApp.fromFolder(EXAMPLE_VAULT);
		const plugin = await loadPlugin(app);
		const report = await plugin.api.lookup('discount-rate');
		expect(report.status).toBe('failed');
		expect(report.error).toMatch(/index is still building/);
	});
});

describe('filter command', () => {
	it('parses a typed line into clauses and options', () => {
		expect(
			filterRequestFromText('type=claim domain=investing rating>=7 folders=all min_confidence=likely'),
		).toEqual({
			operation: 'filter',
			where: ['type=claim', 'domain=investing', 'rating>=7'],
			folders: ['all'],
			min_confidence: 'likely',
		});
	});

	it('runs the typed filter, lists the notes and folds the retrieval report', async () => {
		const { app } = await ready();
		expect(app.commands.executeCommandById('vault-query:filter-by-properties')).toBe(true);
		await settle();
		const input = document.querySelector<HTMLInputElement>('.vault-query-filter-input');
		if (!input) throw new Error('no filter input');
		input.value = 'type=claim folders=all';
		input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
		await settle();
		const modal = document.querySelector<HTMLElement>('.vault-query-modal');
		const paths = [...(modal?.querySelectorAll('.vault-query-result-path') ?? [])].map((el) => el.textContent);
		expect(paths).toContain('skill-lab/discount-rate.md');
		expect(modal?.querySelector('.vault-query-report')?.textContent).toMatch(/^RETRIEVAL REPORT — vault-reader/);
		expect(modal?.querySelector('.vault-query-report')?.textContent).toContain('Status: ');
	});

	it('a typo in a field shows the rejection, not an empty list', async () => {
		const { app } = await ready();
		app.commands.executeCommandById('vault-query:filter-by-properties');
		await settle();
		const input = document.querySelector<HTMLInputElement>('.vault-query-filter-input');
		if (!input) throw new Error('no filter input');
		input.value = 'domian=investing';
		input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
		await settle();
		expect(document.querySelector('.vault-query-error')?.textContent).toMatch(/did you mean "domain"/);
	});
});
