// @vitest-environment happy-dom
/**
 * `vault-query` code blocks: the stub's code block processor turns `pre > code.language-vault-query`
 * into `div.block-language-vault-query` and calls ours, as Obsidian does. Results, packs and
 * errors render in the block; it follows vault changes and lets go when unloaded.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseBlock } from '../../src/ui/code-block-syntax';
import { MarkdownPreviewRenderer, type MarkdownRenderChild } from '../obsidian-stub/index';
import { ready, texts, type Ready } from './harness';
import { captureClipboard } from './clipboard';
import { waitFor } from '../helpers/wait';

const clipboard = captureClipboard();

/** Renders a block the way Obsidian's reading view would; returns the block element and its child. */
async function renderBlock(
	source: string,
	sourcePath = 'Home.md',
): Promise<{ el: HTMLElement; child: MarkdownRenderChild }> {
	const view = document.body.createDiv('markdown-preview-view');
	view.createEl('pre').createEl('code', { cls: 'language-vault-query', text: `${source}\n` });
	const children: MarkdownRenderChild[] = [];
	const ctx = {
		docId: 'doc',
		sourcePath,
		frontmatter: null,
		addChild: (child: MarkdownRenderChild) => {
			children.push(child);
			child.load();
		},
		getSectionInfo: () => null,
	};
	for (const processor of MarkdownPreviewRenderer.postProcessors) await processor(view, ctx);
	const el = view.querySelector<HTMLElement>('div.block-language-vault-query');
	if (!el || children.length !== 1) throw new Error('the block was not processed');
	await waitFor(() =>
		expect(el.querySelector('.vault-query-block-body:not(.is-pending), .vault-query-block-error')).not.toBeNull(),
	);
	return { el, child: children[0]! };
}

describe('vault-query code blocks', () => {
	let r: Ready;
	beforeEach(async () => {
		r = await ready();
	});
	// Code block processors are global in Obsidian (and the stub): unload to unregister ours.
	afterEach(() => r.plugin.unload());

	it('search: ranked hits with the modal syntax and a limit; a bare line is a search too', async () => {
		const { el } = await renderBlock('search: copilot retention\nlimit: 2');
		expect(el.querySelector('.vault-query-block-title')?.textContent).toBe('Search: copilot retention');
		expect(texts(el, '.vault-query-hit-title')).toEqual(['copilot-data-retention', 'copilot-data-handling']);
		expect(el.querySelector('.vault-query-summary')?.textContent).toMatch(/^Showing 2 of \d+ notes$/);
		(el.querySelector('.vault-query-result') as HTMLElement).dispatchEvent(
			new KeyboardEvent('keydown', { key: 'Enter' }),
		);
		await waitFor(() =>
			expect(r.app.workspace.opened.map((o) => o.path)).toEqual(['facts/copilot-data-retention.md']),
		);
		const bare = await renderBlock('kelly');
		expect(texts(bare.el, '.vault-query-hit-title')[0]).toBe('kelly-criterion');
		expect(document.querySelectorAll('[style]')).toHaveLength(0);
	});

	it('structural keys: backlinks: this, tag:, property:, links:, grep:', async () => {
		const back = await renderBlock('backlinks: this', 'conventions.md');
		expect(back.el.querySelector('.vault-query-block-title')?.textContent).toBe('Backlinks of conventions');
		expect(back.el.querySelectorAll('.vault-query-result')).toHaveLength(10);
		const tag = await renderBlock('tag: #copilot\nfolders: research');
		expect(texts(tag.el, '.vault-query-result-path')).toEqual(['research/copilot-data-handling.md']);
		const prop = await renderBlock('property: status=confirmed');
		expect(texts(prop.el, '.vault-query-result-path')).toContain('facts/copilot-data-retention.md');
		const links = await renderBlock('links: this', 'research/copilot-data-handling.md');
		expect(texts(links.el, '.vault-query-result-title')).toEqual(['sdlc-modernization', 'copilot-data-retention']);
		const grep = await renderBlock('grep: /FFIEC/');
		expect(texts(grep.el, '.vault-query-line-text')[0]).toContain('FFIEC IT Handbook');
	});

	it('pack: a context pack in the note, within its budget, with a copy button', async () => {
		const { el } = await renderBlock('pack: how long are copilot prompts retained?\nbudget: 800');
		expect(el.querySelector('.vault-query-block-title')?.textContent).toBe(
			'Context pack: how long are copilot prompts retained?',
		);
		expect(el.querySelector('.vault-query-summary')?.textContent).toMatch(
			/^\d+ of 800 tokens · \d+ sources? · \d+ gaps?$/,
		);
		expect(texts(el, '.vault-query-pack-id')[0]).toBe('S1');
		expect(texts(el, '.vault-query-pack-source-head .vault-query-hit-title')[0]).toContain(
			'facts/copilot-data-retention.md',
		);
		expect(el.querySelectorAll('blockquote.vault-query-quote').length).toBeGreaterThan(0);
		const copy = el.querySelector<HTMLButtonElement>('button.vault-query-copy');
		expect(copy?.getAttribute('aria-label')).toBe('Copy context pack');
		copy?.click();
		await waitFor(() => expect(clipboard).toHaveLength(1));
		expect(clipboard[0]).toMatch(/^# Context pack/);
	});

	it('errors render as a clear message in the block', async () => {
		const cases: [string, RegExp][] = [
			['foo: bar', /Line 1: unknown key "foo"/],
			['', /The block is empty/],
			['search: x\nlimit: many', /limit: must be a whole number/],
			['search: x\ntag: y', /one block shows one thing/],
			['tag: #', /Type a tag/],
		];
		for (const [source, message] of cases) {
			const { el } = await renderBlock(source);
			expect(el.querySelector('.vault-query-block-error')?.getAttribute('role')).toBe('alert');
			expect(el.querySelector('.vault-query-block-error')?.textContent, source).toMatch(message);
		}
		const regex = await renderBlock('search: /([/');
		expect(regex.el.querySelector('.vault-query-error')?.textContent).toMatch(/^The search could not run: regex/);
		const missing = await renderBlock('backlinks: no-such-note');
		expect(missing.el.querySelector('.vault-query-error')?.textContent).toContain('no-such-note');
	});

	it('redraws after vault changes (debounced) and stops listening once unloaded', async () => {
		const baseline = r.app.metadataCache.listenerCount('resolved');
		const { el, child } = await renderBlock('backlinks: people/ravi-patel');
		expect(r.app.metadataCache.listenerCount('resolved')).toBe(baseline + 1);
		const before = el.querySelectorAll('.vault-query-result').length;
		r.app.modify('projects/alpha.md', `${r.app.vault.textOf('projects/alpha.md') ?? ''}\nAsk [[ravi-patel]].\n`);
		await waitFor(() => expect(el.querySelectorAll('.vault-query-result').length).toBe(before + 1));
		child.unload();
		expect(r.app.metadataCache.listenerCount('resolved')).toBe(baseline);
	});

	it('parses the syntax: keys, options, this, bare searches and search operators', () => {
		expect(parseBlock('search: a b\nlimit: 3', 'x.md')).toEqual({ kind: 'search', query: 'a b', limit: 3 });
		expect(parseBlock('path:skill-lab/ risk', 'x.md')).toEqual({
			kind: 'search',
			query: 'path:skill-lab/ risk',
			limit: undefined,
		});
		expect(parseBlock('\nbacklinks: this\n', 'notes/n.md')).toMatchObject({
			kind: 'structural',
			query: { type: 'backlinks', target: 'notes/n' },
		});
		expect(parseBlock('pack: why?\nbudget: 900', 'x.md')).toEqual({ kind: 'pack', question: 'why?', budget: 900 });
		expect(parseBlock('property: status~op\nfolders: a, b\nlimit: 5', 'x.md')).toMatchObject({
			kind: 'structural',
			query: { type: 'prop', key: 'status', value: 'op', match: 'contains', folders: ['a', 'b'], limit: 5 },
		});
	});
});

describe('vault-query code blocks: a pack that finds no answer', () => {
	let r: Ready;
	beforeEach(async () => {
		r = await ready({
			'Templates/Daily Note Template.md': '---\ntags:\n  - daily\n---\n## Notes\n\n![[Daily.base]]\n',
			'Gardening.md': '# Gardening\n\nTomatoes need sun and water every morning.\n',
		});
	});
	afterEach(() => r.plugin.unload());

	it('lists the notes that match the words of an unanswered question, each opening its note', async () => {
		const { el } = await renderBlock('pack: daily notes');
		expect(el.querySelectorAll('.vault-query-pack-source')).toHaveLength(0);
		expect(texts(el, '.vault-query-pack-list li')[0]).toContain('daily notes — GAP');
		expect(texts(el, '.vault-query-pack-list > li').at(-1)).toBe(
			'"daily notes": no section answers it. 1 note matches its words:Templates/Daily Note Template.md',
		);
		expect(texts(el, '.vault-query-pack-leads li')).toEqual(['Templates/Daily Note Template.md']);
		el.querySelector<HTMLElement>('.vault-query-pack-leads li')!.dispatchEvent(
			new KeyboardEvent('keydown', { key: 'Enter' }),
		);
		await waitFor(() =>
			expect(r.app.workspace.opened.map((o) => o.path)).toEqual(['Templates/Daily Note Template.md']),
		);
	});
});
