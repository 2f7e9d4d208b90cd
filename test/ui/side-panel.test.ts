// @vitest-environment happy-dom
/**
 * The side panel (an ItemView in the right sidebar: `.workspace-leaf-content[data-type]` >
 * `.view-content`) over the example vault: backlinks grouped with their linking lines, outgoing
 * links, the tag tree, notes sharing tags, the query box, copy-pack; following the active note
 * and vault edits; releasing every listener when closed.
 */
import { describe, expect, it } from 'vitest';
import { SIDE_PANEL_VIEW } from '../../src/ui/side-panel';
import { settle } from '../plugin/harness';
import { ready, texts, type Ready } from './harness';
import { captureClipboard } from './clipboard';
import { waitFor } from '../helpers/wait';

const clipboard = captureClipboard();

function panel(): HTMLElement {
	const el = document.querySelector<HTMLElement>(
		`.workspace-leaf-content[data-type="${SIDE_PANEL_VIEW}"] .view-content`,
	);
	if (!el) throw new Error('no side panel');
	return el;
}

/** Opens `note`, then the panel through its command, and waits for the first drawing. */
async function openPanel(r: Ready, note: string): Promise<HTMLElement> {
	await r.app.openNote(note);
	expect(r.app.commands.executeCommandById('vault-query:open-note-context')).toBe(true);
	await waitFor(() =>
		expect(panel().querySelector('.vault-query-panel-title')?.textContent).toBe(
			note.replace(/^.*\//, '').replace(/\.md$/, ''),
		),
	);
	return panel();
}

function group(root: HTMLElement, source: string): string[] {
	return texts(root, `.vault-query-panel-group.mod-${source} .vault-query-panel-row > .vault-query-result-path`);
}

describe('side panel', () => {
	it('lists the backlinks of conventions grouped body / properties / both, each with its linking line', async () => {
		const r = await ready();
		const el = await openPanel(r, 'conventions.md');
		expect(el.closest('.workspace-split')?.classList.contains('mod-right-split')).toBe(true);
		expect([...group(el, 'body')].sort()).toEqual([
			'Home.md',
			'decisions/README.md',
			'facts/README.md',
			'insights/README.md',
			'notes/broken-frontmatter.md',
			'notes/多语言笔记.md',
			'research/README.md',
			'sdlc-modernization.md',
		]);
		expect(group(el, 'frontmatter')).toEqual(['insights/agents-read-before-they-search.md']);
		expect(group(el, 'both')).toEqual(['decisions/2026-06-20-adopt-obsidian-and-ob1-patterns.md']);
		expect(el.querySelector('.mod-backlinks .vault-query-panel-count')?.textContent).toBe('10');
		const agents = el.querySelector('.vault-query-panel-group.mod-frontmatter .vault-query-panel-row');
		expect(texts(agents ?? el, '.vault-query-line-number')).toEqual(['6']);
		expect(texts(agents ?? el, '.vault-query-line-text')).toEqual(['links: [[[conventions]]]']);
		const both = el.querySelector('.vault-query-panel-group.mod-both .vault-query-panel-row');
		expect(texts(both ?? el, '.vault-query-line-text')).toEqual([
			'links: [sdlc-modernization, conventions]',
			'Use an Obsidian vault laid out by the [[conventions]], with the OB1 patterns for structured',
		]);

		// A linking line opens the note there.
		(agents?.querySelector('.vault-query-match') as HTMLElement).click();
		expect(r.app.workspace.opened.at(-1)).toMatchObject({
			path: 'insights/agents-read-before-they-search.md',
			state: { eState: { line: 5 } },
		});
		expect(el.querySelectorAll('[style]')).toHaveLength(0);
	});

	it('shows outgoing links (resolved and not), the tag tree, and notes sharing its tags', async () => {
		const r = await ready();
		const el = await openPanel(r, 'research/copilot-data-handling.md');
		expect(texts(el, '.mod-outgoing .vault-query-panel-row-title')).toEqual([
			'sdlc-modernization ×2',
			'copilot-data-retention ×2',
		]);
		expect(texts(el, '.mod-tags .vault-query-tag')).toEqual(['copilot', 'research', 'todo']);
		expect(texts(el, '.mod-sharing .vault-query-panel-row-title')).toContain('copilot-data-retention');

		await openPanel(r, 'digests/2026-w25.md');
		expect(
			texts(panel(), '.mod-outgoing .vault-query-panel-row.is-unresolved .vault-query-panel-row-title'),
		).toEqual(['budget-2027']);

		await openPanel(r, 'facts/copilot-data-retention.md');
		const tree = panel().querySelector('.mod-tags .vault-query-tag-tree');
		expect(texts(tree ?? panel(), ':scope > li > .vault-query-tag')).toEqual(['copilot', 'fact', 'security']);
		expect(texts(tree ?? panel(), ':scope > li > ul > li > .vault-query-tag')).toEqual(['policy', 'data-handling']);
		expect(tree?.querySelector('.vault-query-tag.is-parent')?.textContent).toBe('security');
	});

	it('a tag click lists its notes in the query box; the box searches as you type with the modal syntax', async () => {
		const r = await ready();
		const el = await openPanel(r, 'facts/copilot-data-retention.md');
		const copilot = [...el.querySelectorAll<HTMLElement>('.mod-tags .vault-query-tag')].find(
			(t) => t.textContent === 'copilot',
		);
		copilot?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' }));
		const input = el.querySelector<HTMLInputElement>('.vault-query-query-input');
		await waitFor(() => expect(texts(el, '.mod-query .vault-query-hit-title').length).toBeGreaterThan(0));
		expect(input?.value).toBe('tag:#copilot');
		expect(texts(el, '.mod-query .vault-query-hit-title')).toEqual([
			'copilot-data-retention',
			'copilot-data-handling',
		]);
		if (!input) throw new Error('no input');
		input.value = 'backlinks:conventions agents';
		input.dispatchEvent(new Event('input'));
		// The first row changes once the debounced query has run (it was copilot-data-retention).
		await waitFor(() =>
			expect(texts(el, '.mod-query .vault-query-hit-title')[0]).toBe('agents-read-before-they-search'),
		);
	});

	it('follows the active note and vault edits (debounced), and keeps the query box', async () => {
		const r = await ready();
		const el = await openPanel(r, 'conventions.md');
		const input = el.querySelector<HTMLInputElement>('.vault-query-query-input');
		if (!input) throw new Error('no input');
		input.value = 'kelly';
		await r.app.openNote('projects/alpha.md');
		await waitFor(() => expect(el.querySelector('.vault-query-panel-title')?.textContent).toBe('alpha'));
		expect(input.value).toBe('kelly');
		const before = group(el, 'body');
		expect(before).not.toContain('people/ana-lima.md');
		r.app.modify('people/ana-lima.md', `${r.app.vault.textOf('people/ana-lima.md') ?? ''}\nLeads [[alpha]].\n`);
		await waitFor(() => expect(group(el, 'body')).toContain('people/ana-lima.md'));
	});

	it('copies the context pack for the query (else the note title) with the budget typed, and says how many tokens it used', async () => {
		const r = await ready();
		const el = await openPanel(r, 'research/copilot-data-handling.md');
		const budget = el.querySelector<HTMLInputElement>('.vault-query-pack-budget input');
		expect(budget?.value).toBe('2000');
		if (!budget) throw new Error('no budget');
		budget.value = '600';
		el.querySelector<HTMLButtonElement>('.mod-pack button.mod-cta')?.click();
		await waitFor(() => expect(clipboard).toHaveLength(1));
		expect(clipboard[0]).toContain('"query": "copilot-data-handling"');
		expect(clipboard[0]).toContain('"token_budget": 600');
		await waitFor(() =>
			expect(el.querySelector('.vault-query-pack-status')?.textContent).toMatch(
				/^"copilot-data-handling": \d+ of 600 tokens used · \d+ sources? · \d+ gaps?$/,
			),
		);
		budget.value = 'lots';
		el.querySelector<HTMLButtonElement>('.mod-pack button.mod-cta')?.click();
		await waitFor(() =>
			expect(el.querySelector('.vault-query-pack-status')?.textContent).toContain('whole number'),
		);
	});

	it('opens once (the command reveals the open panel), and closing it releases every listener', async () => {
		const r = await ready();
		const baseline = {
			workspace: r.app.workspace.listenerCount('file-open'),
			meta: r.app.metadataCache.listenerCount('resolved'),
		};
		await openPanel(r, 'conventions.md');
		r.app.commands.executeCommandById('vault-query:open-note-context');
		await settle();
		expect(r.app.workspace.getLeavesOfType(SIDE_PANEL_VIEW)).toHaveLength(1);
		expect(r.app.workspace.listenerCount('file-open')).toBe(baseline.workspace + 1);
		r.app.workspace.getLeavesOfType(SIDE_PANEL_VIEW)[0]!.detach();
		await settle();
		expect(r.app.workspace.listenerCount('file-open')).toBe(baseline.workspace);
		expect(r.app.metadataCache.listenerCount('resolved')).toBe(baseline.meta);
	});

	it('the ribbon icon opens it and has an aria-label', async () => {
		const r = await ready();
		const ribbon = document.body.createDiv('side-dock-ribbon');
		r.plugin.unload();
		r.plugin.load();
		await settle();
		const button = ribbon.querySelector<HTMLElement>('.side-dock-ribbon-action');
		expect(button?.getAttribute('aria-label')).toBe('Open note context');
		await r.app.openNote('conventions.md');
		button?.click();
		await waitFor(() => expect(panel().querySelector('.vault-query-panel-title')?.textContent).toBe('conventions'));
	});
});
