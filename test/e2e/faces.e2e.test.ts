/**
 * The plugin's faces end to end in Debian's Chromium (playwright-core, headless, a fresh
 * profile): the real plugin on the stub's DOM and the fake app over the example vault, built
 * into a page served from 127.0.0.1. Keyboard and mouse go through the browser, the clipboard is
 * the browser's. Screenshots of each face in light and dark go to test-output/screenshots/
 * (VAULT_QUERY_DOCS_SCREENSHOTS=1 also refreshes docs/screenshots/ for the README).
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import { REPO } from '../helpers/paths';
import { describeInChromium } from './harness-page';

const OUT = join(REPO, 'test-output', 'e2e');
const SHOTS = join(REPO, 'test-output', 'screenshots');
const DOCS = join(REPO, 'docs', 'screenshots');
const MOD = 'Control'; // Chromium on Linux: Mod is Ctrl.

let page: Page;

/** Saves a screenshot of the page (or of one element, in a window `height` tall) as test-output/screenshots/<name>.png. */
async function shot(name: string, selector?: string, height?: number): Promise<void> {
	mkdirSync(SHOTS, { recursive: true });
	const path = join(SHOTS, `${name}.png`);
	const viewport = page.viewportSize();
	if (height !== undefined && viewport) await page.setViewportSize({ width: viewport.width, height });
	if (selector === undefined) await page.screenshot({ path });
	else await page.locator(selector).first().screenshot({ path });
	if (height !== undefined && viewport) await page.setViewportSize(viewport);
	if (process.env.VAULT_QUERY_DOCS_SCREENSHOTS === '1') {
		mkdirSync(DOCS, { recursive: true });
		copyFileSync(path, join(DOCS, `${name}.png`));
	}
}

async function theme(name: 'light' | 'dark'): Promise<void> {
	await page.evaluate((t) => window.harness?.setTheme(t), name);
}

async function command(id: string): Promise<void> {
	expect(await page.evaluate((c) => window.harness?.command(c) ?? false, id)).toBe(true);
}

async function openNote(path: string): Promise<void> {
	await page.evaluate((p) => window.harness?.openNote(p), path);
}

async function lastOpened(): Promise<{ path: string; newLeaf: unknown; state: unknown } | undefined> {
	return page.evaluate(() => window.harness?.app.workspace.opened.at(-1));
}

async function clipboard(): Promise<string> {
	return page.evaluate(() => navigator.clipboard.readText());
}

/** Opens "Search vault", types like a person, and waits for the first hit. */
async function searchFor(query: string, firstTitle: string): Promise<void> {
	await command('vault-query:search-vault');
	await page.waitForSelector('.prompt.vault-query-search-modal input.prompt-input:focus');
	await page.keyboard.type(query, { delay: 25 });
	await page.waitForFunction(
		(t) => document.querySelector('.suggestion-item.is-selected .vault-query-hit-title')?.textContent === t,
		firstTitle,
	);
}

async function openPanel(note: string, title: string): Promise<void> {
	await openNote(note);
	await command('vault-query:open-note-context');
	await page.waitForFunction((t) => document.querySelector('.vault-query-panel-title')?.textContent === t, title);
}

describeInChromium('the faces in Chromium', OUT, (harness) => {
	beforeAll(() => {
		page = harness.page;
	});

	beforeEach(async () => {
		harness.errors.length = 0;
		await harness.load();
	});

	it('search modal: type a query, ↓, Enter → the second hit opens at its line', async () => {
		await openNote('Home.md');
		await searchFor('copilot retention', 'copilot-data-retention');
		expect(await page.locator('.suggestion-item .vault-query-hit-title').allTextContents()).toEqual(
			expect.arrayContaining(['copilot-data-retention', 'copilot-data-handling']),
		);
		expect(await page.locator('.suggestion-item.is-selected .vault-query-hl').count()).toBeGreaterThan(0);
		await page.keyboard.press('ArrowDown');
		expect(await page.locator('.suggestion-item.is-selected .vault-query-hit-title').textContent()).toBe(
			'copilot-data-handling',
		);
		await shot('search-modal-light');
		await page.keyboard.press('Enter');
		await page.waitForFunction(
			() => document.querySelector('.mod-root .inline-title')?.textContent === 'copilot-data-handling',
		);
		expect(await page.locator('.vault-query-search-modal').count()).toBe(0);
		const opened = await lastOpened();
		expect(opened).toMatchObject({
			path: 'research/copilot-data-handling.md',
			newLeaf: false,
			state: { eState: { line: 11 } },
		});

		await theme('dark');
		await searchFor('copilot retention', 'copilot-data-retention');
		await page.keyboard.press('ArrowDown');
		await shot('search-modal-dark');
		await page.keyboard.press(`${MOD}+Enter`);
		await page.waitForFunction(() => window.harness?.app.workspace.opened.length === 3);
		expect(await lastOpened()).toMatchObject({ path: 'research/copilot-data-handling.md', newLeaf: 'tab' });
		expect(harness.errors).toEqual([]);
	});

	it('search modal: typing fast loses no keystroke and runs a search per pause, not per key', async () => {
		await page.evaluate(() => {
			const faces = window.harness?.plugin.faces;
			if (!faces) return;
			const search = faces.search.bind(faces);
			const calls: string[] = [];
			(window as unknown as { searches: string[] }).searches = calls;
			faces.search = (text, options) => {
				calls.push(text);
				return search(text, options);
			};
		});
		await command('vault-query:search-vault');
		await page.waitForSelector('.prompt-input:focus');
		await page.keyboard.type('position sizing kelly', { delay: 15 });
		expect(await page.inputValue('.prompt-input')).toBe('position sizing kelly');
		await page.waitForFunction(
			() =>
				document.querySelector('.suggestion-item.is-selected .vault-query-hit-title')?.textContent ===
				'position-sizing',
		);
		const searches = await page.evaluate(() => (window as unknown as { searches: string[] }).searches);
		expect(searches.at(-1)).toBe('position sizing kelly');
		// 21 keystrokes, 15 ms apart: a pause of 120 ms starts a search, so a handful at most even on a loaded machine.
		expect(searches.length).toBeLessThanOrEqual(5);
	});

	it('search modal: Mod+Shift+C puts the context pack for the query on the clipboard', async () => {
		await searchFor('copilot retention', 'copilot-data-retention');
		await page.keyboard.press(`${MOD}+Shift+C`);
		await page.waitForSelector('.notice-message');
		expect(await page.locator('.notice-message').first().textContent()).toMatch(
			/^Context pack copied: [\d,]+ of 2,000 tokens/,
		);
		const pack = await clipboard();
		expect(pack).toMatch(/^# Context pack/);
		expect(pack).toContain('"query": "copilot retention"');
		expect(pack).toContain('facts/copilot-data-retention.md');
	});

	it('side panel: the backlinks of conventions, grouped, with their linking lines; keyboard-only navigation', async () => {
		await openPanel('conventions.md', 'conventions');
		await page.waitForFunction(
			() => document.querySelector('.mod-backlinks .vault-query-panel-count')?.textContent === '10',
		);
		const group = (source: string): Promise<string[]> =>
			page
				.locator(`.vault-query-panel-group.mod-${source} .vault-query-panel-row > .vault-query-result-path`)
				.allTextContents();
		expect((await group('body')).sort()).toEqual([
			'Home.md',
			'decisions/README.md',
			'facts/README.md',
			'insights/README.md',
			'notes/broken-frontmatter.md',
			'notes/多语言笔记.md',
			'research/README.md',
			'sdlc-modernization.md',
		]);
		expect(await group('frontmatter')).toEqual(['insights/agents-read-before-they-search.md']);
		expect(await group('both')).toEqual(['decisions/2026-06-20-adopt-obsidian-and-ob1-patterns.md']);
		expect(
			await page.locator('.vault-query-panel-group.mod-frontmatter .vault-query-line-text').allTextContents(),
		).toEqual(['links: [[[conventions]]]']);
		await shot('side-panel-light', '.workspace', 940);
		await theme('dark');
		await shot('side-panel-dark', '.workspace', 940);

		// Keyboard only: from the note title, Tab reaches the Backlinks fold, then the first backlink; Enter opens it.
		await page.focus('.vault-query-panel-title');
		await page.keyboard.press('Tab');
		expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SUMMARY');
		await page.keyboard.press('Tab');
		const focused = await page.evaluate(() => {
			const el = document.activeElement;
			return el
				? {
						cls: el.className,
						text: el.textContent,
						outline: getComputedStyle(el).outlineStyle,
						visible: el.matches(':focus-visible'),
					}
				: null;
		});
		expect(focused).toMatchObject({ cls: 'vault-query-panel-row-title', outline: 'solid', visible: true });
		await page.keyboard.press('Enter');
		await page.waitForFunction(
			(t) => document.querySelector('.mod-root .inline-title')?.textContent === t,
			focused?.text ?? '',
		);
		expect(harness.errors).toEqual([]);
	});

	it('side panel: "Copy context pack" puts the pack on the clipboard within the budget typed', async () => {
		await openPanel('research/copilot-data-handling.md', 'copilot-data-handling');
		await page.fill('.vault-query-pack-budget input', '800');
		await page.click('.mod-pack button.mod-cta');
		await page.waitForFunction(() =>
			/tokens used/.test(document.querySelector('.vault-query-pack-status')?.textContent ?? ''),
		);
		expect(await page.locator('.vault-query-pack-status').textContent()).toMatch(
			/^"copilot-data-handling": \d+ of 800 tokens used · \d+ sources? · \d+ gaps?$/,
		);
		const pack = await clipboard();
		expect(pack).toMatch(/^# Context pack/);
		expect(pack).toContain('"token_budget": 800');
		expect(pack).toContain('"query": "copilot-data-handling"');
	});

	it('code blocks and the settings tab render in both themes', async () => {
		await page.evaluate(() =>
			window.harness?.renderBlocks(
				[
					'search: copilot\nlimit: 2',
					'pack: How long are Copilot prompts retained?\nbudget: 450',
					'backlinks: this',
				],
				'research/copilot-data-handling.md',
			),
		);
		await page.waitForFunction(
			() =>
				document.querySelectorAll('.block-language-vault-query .vault-query-block-body:not(.is-pending)')
					.length === 3,
		);
		expect(await page.locator('.block-language-vault-query').nth(0).locator('.vault-query-result').count()).toBe(2);
		expect(await page.locator('.block-language-vault-query').nth(2).locator('.vault-query-result').count()).toBe(3);
		expect(await page.locator('.vault-query-pack-id').first().textContent()).toBe('S1');
		await shot('code-block-light', '.mod-root', 1000);
		await theme('dark');
		await shot('code-block-dark', '.mod-root', 1000);
		await theme('light');
		await page.evaluate(() => window.harness?.openSettings());
		await page.waitForSelector('.vault-query-settings .setting-item-heading');
		expect(await page.locator('.setting-item-heading .setting-item-name').allTextContents()).toEqual([
			'Index',
			'Queries',
			'Ranked search',
			'Context packs',
			'Schema-strict reads',
		]);
		await shot('settings-light', '.modal.mod-settings', 1000);
		await theme('dark');
		await shot('settings-dark', '.modal.mod-settings', 1000);
		expect(harness.errors).toEqual([]);
	});
});
