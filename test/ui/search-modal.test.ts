// @vitest-environment happy-dom
/**
 * "Search vault" on the stub's DOM (Obsidian's `.prompt`, `.prompt-input`, `.suggestion-item`,
 * `.is-selected`) over the example vault: live ranked rows, keys, the full query syntax.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXAMPLE_VAULT, settle } from '../plugin/harness';
import { hashTree } from '../helpers/hash';
import { ready, texts, type Ready } from './harness';
import { waitFor } from '../helpers/wait';

let clipboard: string[] = [];
let vaultHash = '';

beforeEach(() => {
	clipboard = [];
	vi.spyOn(navigator.clipboard, 'writeText').mockImplementation(async (text: string) => {
		clipboard.push(text);
	});
	vaultHash = hashTree(EXAMPLE_VAULT);
});

afterEach(() => {
	vi.restoreAllMocks();
	document.body.empty();
	expect(hashTree(EXAMPLE_VAULT)).toBe(vaultHash);
});

function modal(): HTMLElement {
	const el = document.querySelector<HTMLElement>('.modal-container .prompt.vault-query-search-modal');
	if (!el) throw new Error('no search modal open');
	return el;
}

function input(): HTMLInputElement {
	const el = modal().querySelector<HTMLInputElement>('input.prompt-input');
	if (!el) throw new Error('no input');
	return el;
}

async function open(r: Ready): Promise<void> {
	expect(r.app.commands.executeCommandById('vault-query:search-vault')).toBe(true);
	await settle();
}

/** Types the whole query at once and waits until its rows (or the empty state) are rendered. */
async function type(text: string): Promise<void> {
	input().value = text;
	input().dispatchEvent(new Event('input'));
	await rendered(text);
}

/** Waits until the suggestions of `text` are rendered (the stub marks each rendering on the modal). */
async function rendered(text: string, after = 0): Promise<void> {
	await waitFor(
		() =>
			modal().getAttribute('data-rendered-query') === text &&
			Number(modal().getAttribute('data-renders')) > after,
		{ what: `the rows of "${text}"` },
	);
}

/** Renderings of the modal so far. */
function renders(): number {
	return Number(modal().getAttribute('data-renders') ?? 0);
}

function key(k: string, mods: KeyboardEventInit = {}): void {
	input().dispatchEvent(new KeyboardEvent('keydown', { key: k, ...mods }));
}

function titles(): string[] {
	return texts(modal(), '.suggestion-item .vault-query-hit-title');
}

describe('search modal', () => {
	it('opens empty with the syntax and the keys; rows show title, folder, tier, terms, highlighted snippet and tags', async () => {
		const r = await ready();
		await open(r);
		expect(input().getAttribute('placeholder')).toBe('Search the vault…');
		expect(texts(modal(), '.suggestion-empty')[0]).toContain('backlinks:Note');
		const keys = texts(modal(), '.prompt-instructions .prompt-instruction');
		expect(keys).toEqual([
			'↑↓to navigate',
			'↵to open',
			'Ctrl ↵to open in a new tab',
			'shift ↵to insert a link',
			'Ctrl shift Cto copy the context pack',
			'escto dismiss',
		]);

		await type('copilot retention');
		expect(titles().slice(0, 2)).toEqual(['copilot-data-retention', 'copilot-data-handling']);
		const first = modal().querySelector<HTMLElement>('.suggestion-item.is-selected');
		if (!first) throw new Error('no selection');
		expect(first.querySelector('.vault-query-hit-folder')?.textContent).toBe('facts');
		expect(first.querySelector('.vault-query-tier')?.textContent).toBe('Title or alias');
		expect(first.querySelector('.vault-query-tier')?.classList.contains('mod-alias-filename')).toBe(true);
		expect(first.querySelector('.vault-query-hit-terms')?.textContent).toBe('copilot, retention');
		expect(texts(first, '.vault-query-hit-snippet .vault-query-hl').map((t) => t.toLowerCase())).toContain(
			'copilot',
		);
		expect(texts(first, '.vault-query-tag')).toEqual([
			'#fact',
			'#copilot',
			'#security/data-handling',
			'#copilot/policy',
		]);
		expect(document.querySelectorAll('[style]')).toHaveLength(0);
		expect(document.querySelectorAll('.vault-query-hit-snippet *').length).toBeGreaterThan(1);
	});

	it('↓ then Enter opens the second hit at the line of its snippet; Mod+Enter opens in a new tab', async () => {
		const r = await ready();
		await open(r);
		await type('copilot retention');
		key('ArrowDown');
		expect(modal().querySelector('.suggestion-item.is-selected .vault-query-hit-title')?.textContent).toBe(
			'copilot-data-handling',
		);
		key('Enter');
		await waitFor(() => expect(r.app.workspace.opened).toHaveLength(1));
		const opened = r.app.workspace.opened[0]!;
		expect(opened).toMatchObject({ path: 'research/copilot-data-handling.md', newLeaf: false });
		const line = (opened.state as { eState: { line: number } }).eState.line;
		const text = r.app.vault.textOf('research/copilot-data-handling.md') ?? '';
		expect(text.split('\n')[line]).toContain('What do we know about Copilot data handling?');
		expect(document.querySelector('.vault-query-search-modal')).toBeNull();

		await open(r);
		await type('kelly');
		key('Enter', { ctrlKey: true });
		await waitFor(() => expect(r.app.workspace.opened).toHaveLength(2));
		expect(r.app.workspace.opened[1]).toMatchObject({ path: 'sources/kelly-criterion.md', newLeaf: 'tab' });
	});

	it('Shift+Enter inserts a link at the cursor of the active editor (never into the vault)', async () => {
		const r = await ready();
		await r.app.openNote('Home.md');
		const editor = r.app.workspace.activeEditor?.editor;
		if (!editor) throw new Error('no editor');
		editor.select(0, 0);
		await open(r);
		await type('kelly');
		key('Enter', { shiftKey: true });
		expect(editor.getValue().startsWith('[[kelly-criterion]]')).toBe(true);
		expect(r.app.vault.textOf('Home.md')?.startsWith('[[kelly-criterion]]')).toBe(false);
		expect(r.app.workspace.opened.map((o) => o.path)).toEqual(['Home.md']);
	});

	it('Mod+Shift+C copies the context pack for the query', async () => {
		const r = await ready();
		await open(r);
		await type('copilot retention');
		key('c', { ctrlKey: true, shiftKey: true });
		await waitFor(() => expect(clipboard).toHaveLength(1));
		expect(clipboard[0]).toMatch(/^# Context pack/);
		expect(clipboard[0]).toContain('facts/copilot-data-retention.md');
		expect(document.querySelector('.vault-query-search-modal')).toBeNull();
		await waitFor(() => expect(texts(document, '.notice-message').join(' ')).toContain('Context pack copied'));
	});

	it('the full syntax: tag:, [key:value], path:, -word, "phrase", /regex/, backlinks: (links: names count)', async () => {
		const r = await ready();
		await open(r);
		await type('tag:#meta');
		expect(titles()).toEqual(['conventions']);
		expect(texts(modal(), '.vault-query-tier')).toEqual(['Filter']);
		await type('[status:confirmed] copilot');
		expect(titles()).toEqual(['copilot-data-retention']);
		await type('copilot -retention path:research/');
		expect(titles()).toEqual([]);
		await type('"vendor\'s trust centre"');
		expect(titles()).toEqual(['copilot-data-retention']);
		await type('/FFIEC IT/');
		expect(titles()).toEqual(['copilot-data-handling']);
		await type('backlinks:conventions');
		const linking = titles();
		expect(linking).toContain('agents-read-before-they-search');
		expect(linking).toHaveLength(10);
		await type('backlinks:conventions agents');
		expect(titles()[0]).toBe('agents-read-before-they-search');
		await type('-backlinks:conventions tag:#meta');
		expect(titles()).toEqual(['conventions']);
	});

	it('explains what cannot run: a bad regex, an unknown backlinks target', async () => {
		const r = await ready();
		await open(r);
		await type('/([/');
		expect(texts(modal(), '.suggestion-empty')[0]).toMatch(/^The search could not run: regex/);
		await type('backlinks:conventoins');
		expect(texts(modal(), '.suggestion-empty')[0]).toContain('backlinks:conventoins');
		expect(texts(modal(), '.suggestion-empty')[0]).toContain('Did you mean: conventions');
		await type('zzqx');
		expect(texts(modal(), '.suggestion-empty')[0]).toMatch(/^No notes match/);
	});

	it('says how many notes match and how many it shows; "Show more" adds a page, a new query starts over', async () => {
		const r = await ready(undefined, { profile: 'team-folders', searchLimit: 2 });
		await open(r);
		await type('copilot');
		expect(texts(modal(), '.vault-query-search-count span')).toEqual(['5 notes match; showing 2']);
		expect(titles()).toHaveLength(2);
		let before = renders();
		modal().querySelector<HTMLButtonElement>('.vault-query-search-count button.vault-query-show-more')?.click();
		await rendered('copilot', before);
		expect(titles()).toHaveLength(4);
		expect(texts(modal(), '.vault-query-search-count span')).toEqual(['5 notes match; showing 4']);
		before = renders();
		modal().querySelector<HTMLButtonElement>('.vault-query-show-more')?.click();
		await rendered('copilot', before);
		expect(titles()).toHaveLength(5);
		// All shown: the count alone, no button.
		expect(texts(modal(), '.vault-query-search-count span')).toEqual(['5 notes match']);
		expect(modal().querySelector('.vault-query-show-more')).toBeNull();
		await type('copilot retention');
		expect(titles().length).toBeLessThanOrEqual(2);
		await type('');
		expect(modal().querySelector('.vault-query-search-count')?.textContent).toBe('');
	});

	it('typing fast runs one search for the burst, and only the latest query is shown', async () => {
		const r = await ready();
		const spy = vi.spyOn(r.plugin.faces, 'search');
		await open(r);
		// The keystrokes come faster than any typist's (no pause at all): one burst.
		for (const partial of ['k', 'ke', 'kel', 'kell', 'kelly']) {
			input().value = partial;
			input().dispatchEvent(new Event('input'));
		}
		await rendered('kelly');
		expect(spy).toHaveBeenCalledTimes(1);
		expect(spy.mock.calls[0]![0]).toBe('kelly');
		expect(titles()[0]).toBe('kelly-criterion');
	});
});
