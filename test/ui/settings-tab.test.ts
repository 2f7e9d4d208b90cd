// @vitest-environment happy-dom
/**
 * The settings tab on the stub's `Setting` DOM (`.setting-item`, `.setting-item-heading`,
 * `.setting-item-name`, `.setting-item-control`): headings and rows, edits saved, invalid numbers
 * refused, the index status and its rebuild, and the declarative definitions of Obsidian 1.13.
 */
import { Setting } from 'obsidian';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PLUGIN_SETTINGS } from '../../src/ui/plugin-settings';
import { parseFolderLines, parseTiers } from '../../src/ui/settings-rows';
import type { VaultQuerySettingTab } from '../../src/ui/settings-tab';
import { settle } from '../plugin/harness';
import { ready, texts, type Ready } from './harness';
import { waitFor } from '../helpers/wait';

afterEach(() => {
	document.body.empty();
});

function openTab(r: Ready): HTMLElement {
	const tab = r.app.setting.tabs[0]!;
	expect(tab).toBeDefined();
	const dialog = document.body.createDiv('vertical-tab-content-container');
	r.app.setting.open(tab, dialog);
	return tab.containerEl;
}

function row(el: HTMLElement, name: string): HTMLElement {
	const item = [...el.querySelectorAll<HTMLElement>('.setting-item')].find(
		(s) => s.querySelector('.setting-item-name')?.textContent === name,
	);
	if (!item) throw new Error(`no setting ${name}`);
	return item;
}

function typeInto(control: HTMLInputElement | HTMLTextAreaElement, value: string): void {
	control.value = value;
	control.dispatchEvent(new Event('input'));
}

async function saved(r: Ready): Promise<Record<string, unknown>> {
	await settle();
	return (await r.plugin.loadData()) as Record<string, unknown>;
}

describe('settings tab', () => {
	it('has sentence-case headings (setHeading) and rows for every setting, with no inline style', async () => {
		const r = await ready();
		const el = openTab(r);
		expect(texts(el, '.setting-item-heading .setting-item-name')).toEqual([
			'Index',
			'Queries',
			'Ranked search',
			'Context packs',
			'Schema-strict reads',
		]);
		const names = texts(el, '.setting-item:not(.setting-item-heading) .setting-item-name');
		expect(names).toEqual([
			'Index status',
			'Saved index',
			'Profile',
			'Excluded folders',
			'Authority folder order',
			'Sort results by',
			'Date properties',
			'Result limit',
			'Excerpt length',
			'Ranked results',
			'Snippet length',
			'Keyword index note',
			'Synonym note',
			'Priority marker',
			'Default budget',
			'Token estimator',
			'Include drafts',
			'Include archived notes',
			'Schema note',
			'Schema-strict folders',
		]);
		for (const name of names) expect(name).toMatch(/^[A-Z][a-z -]+$/);
		expect(row(el, 'Excluded folders').querySelector('.setting-item-description')?.textContent).toContain(
			'Excluded files',
		);
		expect(row(el, 'Token estimator').querySelector('.setting-item-description')?.textContent).toContain(
			'ceil(non-CJK characters / 4) + 1 per CJK character',
		);
		expect(row(el, 'Token estimator').querySelector('.setting-item-control')?.children).toHaveLength(0);
		expect(el.querySelectorAll('[style]')).toHaveLength(0);
	});

	it('shows the index status and rebuilds the search index with the new exclusions', async () => {
		const r = await ready();
		const el = openTab(r);
		const status = row(el, 'Index status');
		expect(status.querySelector('.setting-item-description')?.textContent).toMatch(
			/^Obsidian's index is ready: \d+ notes\. Ranked search: \d+ notes indexed in \d+ ms\.$/,
		);
		expect((await r.plugin.api.search('kelly')).results.map((h) => h.path)).toContain(
			'skill-lab/position-sizing.md',
		);

		const area = row(el, 'Excluded folders').querySelector('textarea');
		if (!area) throw new Error('no textarea');
		typeInto(area, `${area.value}\nskill-lab`);
		expect((await saved(r)).excludedFolders).toContain('skill-lab/');
		const before = await r.plugin.engine.searchIndex();
		const button = status.querySelector('button');
		button?.click();
		expect(button?.disabled).toBe(true);
		await waitFor(() => expect(button?.disabled).toBe(false));
		expect(await r.plugin.engine.searchIndex()).not.toBe(before);
		expect(status.querySelector('.setting-item-description')?.textContent).toMatch(
			/Ranked search: \d+ notes indexed/,
		);
		expect((await r.plugin.api.search('kelly')).results.map((h) => h.path)).not.toContain(
			'skill-lab/position-sizing.md',
		);
	});

	it('an edit of "Excluded folders" rebuilds the search index by itself, without the excluded notes', async () => {
		const r = await ready();
		const el = openTab(r);
		const before = await r.plugin.engine.searchIndex();
		const notesBefore = before.size;
		expect((await r.plugin.api.search('kelly')).results.map((h) => h.path)).toContain(
			'skill-lab/position-sizing.md',
		);

		const area = row(el, 'Excluded folders').querySelector('textarea');
		if (!area) throw new Error('no textarea');
		typeInto(area, `${area.value}\nskill-lab`);
		expect((await saved(r)).excludedFolders).toContain('skill-lab/');
		// Nothing asks for the index here (no search, no rebuild button): the settings' own rebuild must build it.
		// The deadline only fails a stuck test; the rebuild waits for typing to stop (a debounce), then builds.
		await waitFor(() => expect(r.plugin.faces.searchIndexReady()).toBe(true), {
			what: 'the settings change to rebuild the search index',
		});
		const after = await r.plugin.engine.searchIndex();
		expect(after).not.toBe(before);
		expect(after.size).toBeGreaterThan(0);
		expect(after.size).toBeLessThan(notesBefore);
		expect((await r.plugin.api.search('kelly')).results.map((h) => h.path)).not.toContain(
			'skill-lab/position-sizing.md',
		);
		expect(row(el, 'Index status').querySelector('.setting-item-description')?.textContent).toMatch(
			/Ranked search: \d+ notes indexed/,
		);
	}, 60_000);

	it('shows what the saved index holds (notes, size, when) and clears it with its button', async () => {
		const r = await ready();
		await r.plugin.engine.savesSettled();
		const el = openTab(r);
		const savedRow = row(el, 'Saved index');
		const desc = (): string => savedRow.querySelector('.setting-item-description')?.textContent ?? '';
		const notes = r.app.vault.getMarkdownFiles().length;
		await waitFor(
			() =>
				expect(desc()).toMatch(
					new RegExp(`^${notes} notes, [\\d.]+ (MB|KB|bytes), saved .+\\. Kept in this device`),
				),
			{ what: 'the saved index row to show what is saved' },
		);
		const button = [...savedRow.querySelectorAll('button')].find((b) => b.textContent === 'Clear saved index');
		if (!button) throw new Error('no Clear saved index button');
		button.click();
		await waitFor(() => expect(desc()).toMatch(/^Nothing is saved yet/), { what: 'the saved index to be cleared' });
		expect(await r.plugin.engine.savedSummary()).toBeNull();
		// The index in memory stays: search still answers.
		expect((await r.plugin.api.search('kelly')).results.length).toBeGreaterThan(0);
	});

	it('saves edits; refuses a number that is not a whole number; toggles', async () => {
		const r = await ready();
		const el = openTab(r);
		const budget = row(el, 'Default budget').querySelector('input');
		if (!budget) throw new Error('no input');
		typeInto(budget, '1500');
		expect((await saved(r)).packBudget).toBe(1500);
		typeInto(budget, '12.5');
		expect(budget.classList.contains('is-invalid')).toBe(true);
		expect((await saved(r)).packBudget).toBe(1500);
		const tiers = row(el, 'Authority folder order').querySelector('textarea');
		if (!tiers) throw new Error('no textarea');
		typeInto(tiers, 'decisions, facts\nprojects');
		expect((await saved(r)).authorityOrder).toEqual([['decisions/', 'facts/'], ['projects/']]);
		row(el, 'Include drafts').querySelector<HTMLElement>('.checkbox-container')?.click();
		expect((await saved(r)).packIncludeDrafts).toBe(true);
		const marker = row(el, 'Priority marker').querySelector('input');
		if (!marker) throw new Error('no input');
		typeInto(marker, 'no colon');
		expect(marker.classList.contains('is-invalid')).toBe(true);
		typeInto(marker, 'kind: summary');
		expect((await saved(r)).synthesisMarker).toBe('kind: summary');
	});

	it('saves paths and folder lists; an emptied schema note keeps its path, an emptied synonym note is none', async () => {
		const r = await ready();
		const el = openTab(r);
		const input = (name: string): HTMLInputElement | HTMLTextAreaElement => {
			const found = row(el, name).querySelector<HTMLInputElement | HTMLTextAreaElement>('input, textarea');
			if (!found) throw new Error(`no input in ${name}`);
			return found;
		};
		typeInto(input('Schema note'), ' meta/schema.md ');
		expect((await saved(r)).schemaPath).toBe('meta/schema.md');
		typeInto(input('Schema note'), '');
		expect((await saved(r)).schemaPath).toBe('meta/schema.md');
		typeInto(input('Synonym note'), '');
		expect((await saved(r)).synonymsPath).toBe('');
		typeInto(input('Schema-strict folders'), 'facts\n\ndecisions/');
		expect((await saved(r)).readerFolders).toEqual(['facts/', 'decisions/']);
		row(el, 'Include archived notes').querySelector<HTMLElement>('.checkbox-container')?.click();
		expect((await saved(r)).packIncludeArchived).toBe(true);
		typeInto(input('Snippet length'), '19');
		expect(input('Snippet length').classList.contains('is-invalid')).toBe(true);
		typeInto(input('Snippet length'), '300');
		expect((await saved(r)).searchExcerptChars).toBe(300);
	});

	it('offers the same rows as declarative groups for Obsidian 1.13 (settings search)', async () => {
		const r = await ready();
		const tab = r.app.setting.tabs[0] as unknown as VaultQuerySettingTab;
		const defs = tab.getSettingDefinitions();
		expect(defs.map((g) => ('heading' in g ? g.heading : ''))).toEqual([
			'Index',
			'Queries',
			'Ranked search',
			'Context packs',
			'Schema-strict reads',
		]);
		const items = defs.flatMap((g) => ('items' in g && g.items ? g.items : []));
		expect(items).toHaveLength(20);
		const synonyms = items.find((i) => 'name' in i && i.name === 'Synonym note');
		if (!synonyms || !('render' in synonyms) || typeof synonyms.render !== 'function') throw new Error('no render');
		const host = document.body.createDiv();
		const setting = new Setting(host);
		synonyms.render(setting, undefined as never);
		expect(host.querySelector<HTMLInputElement>('.setting-item-control input')?.value).toBe(
			DEFAULT_PLUGIN_SETTINGS.synonymsPath,
		);
	});

	it('parses folder lines and tiers the way the engine expects them', () => {
		expect(parseFolderLines(' facts \n\n/decisions/\nnotes\\old ')).toEqual(['facts/', 'decisions/', 'notes/old/']);
		expect(parseTiers('facts, decisions\n\n people ')).toEqual([['facts/', 'decisions/'], ['people/']]);
	});
});
