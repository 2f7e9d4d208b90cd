// @vitest-environment happy-dom
/**
 * The commands end to end on the stub's DOM: palette command → prompt (Obsidian's
 * `.prompt` / `.prompt-input` / `.suggestion-item`) → results modal → opening a note.
 */
import { TFile } from 'obsidian';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeApp } from './fake-app';
import { SMALL_VAULT, loadPlugin, settle } from './harness';

async function ready(): Promise<FakeApp> {
	const app = new FakeApp(SMALL_VAULT);
	await loadPlugin(app);
	app.layoutReady();
	app.indexAll();
	await settle();
	return app;
}

function prompt(): HTMLElement {
	const el = document.querySelector<HTMLElement>('.modal-container .prompt');
	if (!el) throw new Error('no prompt open');
	return el;
}

function input(): HTMLInputElement {
	const el = prompt().querySelector<HTMLInputElement>('input.prompt-input');
	if (!el) throw new Error('no prompt input');
	return el;
}

function suggestions(): string[] {
	return [...prompt().querySelectorAll('.prompt-results .suggestion-item .suggestion-title')].map(
		(el) => el.textContent ?? '',
	);
}

async function type(text: string): Promise<void> {
	input().value = text;
	input().dispatchEvent(new Event('input'));
	await settle();
}

async function press(key: string): Promise<void> {
	input().dispatchEvent(new KeyboardEvent('keydown', { key }));
	await settle();
}

function resultsModal(): HTMLElement {
	const el = document.querySelector<HTMLElement>('.modal-container .vault-query-modal');
	if (!el) throw new Error('no results modal open');
	return el;
}

function texts(root: ParentNode, selector: string): string[] {
	return [...root.querySelectorAll(selector)].map((el) => el.textContent ?? '');
}

async function run(app: FakeApp, command: string, argument?: string): Promise<HTMLElement> {
	expect(app.commands.executeCommandById(`vault-query:${command}`)).toBe(true);
	await settle();
	if (argument !== undefined) await type(argument);
	await press('Enter');
	return resultsModal();
}

afterEach(() => {
	document.body.empty();
});

describe('query commands', () => {
	it('backlinks: the prompt defaults to the active note; results show path and link source; a click opens the note', async () => {
		const app = await ready();
		const active = app.vault.getAbstractFileByPath('conventions.md');
		if (!(active instanceof TFile)) throw new Error('missing note');
		app.workspace.activeFile = active;
		app.commands.executeCommandById('vault-query:show-backlinks');
		await settle();
		expect(input().value).toBe('conventions');
		expect(input().getAttribute('placeholder')).toBe('Note name or path');
		expect(prompt().querySelector('.suggestion-item.is-selected .suggestion-title')?.textContent).toBe(
			'conventions',
		);
		await press('Enter');

		const modal = resultsModal();
		expect(modal.querySelector('.modal-title')?.textContent).toBe('Backlinks of conventions');
		expect(texts(modal, '.vault-query-result-path')).toEqual(['Home.md', 'notes/broken.md', 'projects/alpha.md']);
		expect(texts(modal, '.vault-query-badge')).toEqual(['Body', 'Body', 'Properties']);
		expect(modal.querySelector('.vault-query-summary')?.textContent).toContain('3 matches');
		expect(texts(modal, '.vault-query-details summary')).toContain('Skipped (1)');

		modal.querySelectorAll<HTMLElement>('.vault-query-result')[0]!.click();
		expect(app.workspace.opened).toEqual([{ path: 'Home.md', newLeaf: false, state: undefined }]);
		expect(document.querySelector('.vault-query-modal')).toBeNull();
	});

	it('grep: matching lines with numbers; clicking a line opens the note there, Mod-click in a new tab', async () => {
		const app = await ready();
		const modal = await run(app, 'search-note-text', 'rules');
		expect(modal.querySelector('.modal-title')?.textContent).toBe('Text matching "rules"');
		const match = modal.querySelector<HTMLElement>('.vault-query-result .vault-query-match');
		expect(match?.querySelector('.vault-query-line-text')?.textContent).toContain('rules');
		const line = Number(match?.querySelector('.vault-query-line-number')?.textContent);
		match?.dispatchEvent(new MouseEvent('click', { ctrlKey: true, bubbles: true }));
		expect(app.workspace.opened).toHaveLength(1);
		expect(app.workspace.opened[0]).toMatchObject({ newLeaf: 'tab', state: { eState: { line: line - 1 } } });
	});

	it('grep: /regex/ is a regular expression, and an invalid one is shown as the failed query it is', async () => {
		const app = await ready();
		const ok = await run(app, 'search-note-text', '/^how w[aeiou]/');
		expect(ok.querySelector('.modal-title')?.textContent).toBe('Text matching /^how w[aeiou]/');
		expect(texts(ok, '.vault-query-result-path')).toEqual(['conventions.md']);
		document.body.empty();
		const bad = await run(app, 'search-note-text', '/([/');
		expect(bad.querySelector('.vault-query-summary')?.textContent).toBe('The query could not run.');
		expect(bad.querySelector('.vault-query-error')?.textContent).toMatch(/pattern|regular expression|regex/i);
		expect(bad.querySelectorAll('.vault-query-result')).toHaveLength(0);
	});

	it('tag: suggests the vault’s tags while typing', async () => {
		const app = await ready();
		app.commands.executeCommandById('vault-query:find-notes-by-tag');
		await settle();
		expect(suggestions()).toEqual(expect.arrayContaining(['#home', '#process', '#project/active']));
		await type('#proj');
		expect(suggestions()).toEqual(['#proj', '#project/active']);
		await press('ArrowDown');
		await press('Enter');
		const modal = resultsModal();
		expect(modal.querySelector('.modal-title')?.textContent).toBe('Notes tagged #project/active');
		expect(texts(modal, '.vault-query-result-path')).toEqual(['projects/alpha.md']);
	});

	it('property: key=value, key~text and did-you-mean for a near-miss key', async () => {
		const app = await ready();
		const equals = await run(app, 'find-notes-by-property', 'status=active');
		expect(equals.querySelector('.modal-title')?.textContent).toBe('Notes where status is active');
		expect(texts(equals, '.vault-query-result-path')).toEqual(['projects/alpha.md']);
		document.body.empty();
		const contains = await run(app, 'find-notes-by-property', 'role~lea');
		expect(texts(contains, '.vault-query-result-path')).toEqual(['people/ana.md']);
		document.body.empty();
		const near = await run(app, 'find-notes-by-property', 'Status=active');
		expect(texts(near, '.vault-query-empty')).toEqual(['Nothing matched.']);
		expect(near.querySelector('.vault-query-suggestions')?.textContent).toContain('status');
	});

	it('outgoing links: resolved links open their target; unresolved ones are marked and inert', async () => {
		const app = await ready();
		const modal = await run(app, 'show-outgoing-links', 'projects/alpha');
		expect(texts(modal, '.vault-query-result-title')).toEqual([
			'people/ana',
			'conventions',
			'pic.png',
			'missing note',
		]);
		const unresolved = modal.querySelector<HTMLElement>('.vault-query-result.is-unresolved');
		expect(unresolved?.querySelector('.vault-query-result-title')?.textContent).toBe('missing note');
		unresolved?.click();
		expect(app.workspace.opened).toEqual([]);
		modal
			.querySelectorAll<HTMLElement>('.vault-query-result')[2]!
			.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
		expect(app.workspace.opened.map((o) => o.path)).toEqual(['attachments/pic.png']);
	});

	it('a blank argument runs nothing; an unusable one is explained in a notice', async () => {
		const app = await ready();
		app.commands.executeCommandById('vault-query:search-note-text');
		await settle();
		expect(texts(prompt(), '.suggestion-empty')).toEqual([
			'Case-insensitive. Wrap in slashes for a regular expression.',
		]);
		await type('   ');
		await press('Enter');
		expect(document.querySelector('.vault-query-modal')).toBeNull();
		document.body.empty();
		app.commands.executeCommandById('vault-query:find-notes-by-tag');
		await settle();
		await type('#');
		await press('Enter');
		expect(document.querySelector('.vault-query-modal')).toBeNull();
		expect(texts(document, '.notice')).toEqual(['Type a tag to look for.']);
	});

	it('before layout-ready a command still answers, with "index is still building"', async () => {
		const app = new FakeApp(SMALL_VAULT);
		await loadPlugin(app);
		const modal = await run(app, 'find-notes-by-tag', 'project');
		expect(modal.querySelector('.vault-query-error')?.textContent).toContain('index is still building');
	});

	it('renders with classes only: no inline styles anywhere', async () => {
		const app = await ready();
		await run(app, 'search-note-text', 'rules');
		expect(document.querySelectorAll('[style]')).toHaveLength(0);
	});
});
