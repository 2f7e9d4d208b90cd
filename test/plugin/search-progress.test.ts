// @vitest-environment happy-dom
/** The first ranked-search build of a large vault shows its progress in a notice, then removes it. */
import { describe, expect, it } from 'vitest';
import { FakeApp } from './fake-app';
import { loadPlugin, settle } from './harness';

describe('search index build progress', () => {
	it('a vault of 2,000+ notes shows "Indexing N notes for search…" until the index is built', async () => {
		const files: Record<string, string> = {};
		for (let i = 0; i < 2100; i++) files[`notes/n${i}.md`] = `# Note ${i}\n\nSome text about topic ${i % 17}.\n`;
		const app = new FakeApp(files);
		const plugin = await loadPlugin(app);
		const seen: string[] = [];
		const observer = new MutationObserver(() => {
			for (const el of document.querySelectorAll('.notice-message')) seen.push(el.textContent ?? '');
		});
		observer.observe(document.body, { childList: true, subtree: true, characterData: true });
		app.layoutReady();
		app.indexAll();
		await settle();
		await plugin.engine.searchIndex();
		await settle();
		observer.disconnect();
		expect(seen.some((text) => text.startsWith('Indexing 2100 notes for search'))).toBe(true);
		expect(document.querySelector('.notice-message')).toBeNull();
	});

	it('a small vault builds without a notice', async () => {
		const app = new FakeApp({ 'a.md': '# A\n', 'b.md': '# B\n' });
		const plugin = await loadPlugin(app);
		app.layoutReady();
		app.indexAll();
		await plugin.engine.searchIndex();
		expect(document.querySelector('.notice-message')).toBeNull();
	});
});
