// @vitest-environment happy-dom
/**
 * Issue 15 "The plugin's live index must equal a rebuild": random create/modify/rename/delete
 * sequences over the fake app — renames chained, across folders, to other extensions, into
 * excluded folders — then the plugin's live engine answers exactly as an engine built afresh over
 * the same vault: search results (with backlinks), and pack sources.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import { engineConfigOf, mergeSettings } from '../../src/ui/plugin-settings';
import { FakeApp } from './fake-app';
import { loadPlugin, settle } from './harness';
import { answers, changeOf, op, TEXTS, type Op } from './vault-changes';

const SAVED = { excludedFolders: ['archive/'] };

/** Apply one change through the fake app's events (none when it cannot apply). */
function apply(app: FakeApp, o: Op): void {
	const change = changeOf(app, o);
	if (change === null) return;
	switch (change.kind) {
		case 'create':
			return app.create(change.path, change.text);
		case 'write':
			return app.modify(change.path, change.text);
		case 'rename':
			return app.rename(change.path, change.to);
		case 'delete':
			return app.delete(change.path);
	}
}

describe('the plugin live index (property)', () => {
	it('after random create/modify/rename/delete sequences equals a fresh build', async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), fc.boolean(), async (ops, awaitEach) => {
				const app = new FakeApp(
					{ 'notes/alpha.md': TEXTS[0], 'beta.md': TEXTS[1], 'private/gamma.md': TEXTS[2] },
					{ userIgnoreFilters: ['private/'] },
				);
				const plugin = await loadPlugin(app, SAVED);
				app.layoutReady();
				app.indexAll();
				await plugin.engine.searchIndex();
				for (const o of ops) {
					apply(app, o);
					// Events arrive faster than reads finish, or one at a time: both must end the same.
					if (awaitEach) await plugin.engine.engine.settled();
				}
				await plugin.engine.engine.settled();
				await settle();
				const fresh = new VaultEngine(plugin.engine.source, engineConfigOf(mergeSettings(SAVED)));
				expect(await answers(plugin.engine.engine)).toEqual(await answers(fresh));
				expect(plugin.engine.engine.status().indexed).toBe(
					fresh.status().indexed ?? (await fresh.searchIndex()).size,
				);
				plugin.unload();
			}),
			{ numRuns: 40 },
		);
	}, 120_000);

	it('issue 15 reproductions: chained renames, rename then delete, rename to another extension', async () => {
		const app = new FakeApp({ 'notes/d.md': TEXTS[0], 'notes/a.md': TEXTS[2] });
		const plugin = await loadPlugin(app);
		app.layoutReady();
		app.indexAll();
		await plugin.engine.searchIndex();
		const live = async (): Promise<string[]> =>
			(await plugin.engine.search('zebra', { limit: 20 })).results.map((h) => h.path).sort();
		app.delete('notes/a.md');
		app.rename('notes/d.md', 'notes/b.md');
		app.rename('notes/b.md', 'notes/a.md');
		await plugin.engine.engine.settled();
		expect(await live()).toEqual(['notes/a.md']);
		app.rename('notes/a.md', 'notes/b.md');
		app.delete('notes/b.md');
		await plugin.engine.engine.settled();
		expect(await live()).toEqual([]);
		app.create('notes/c.md', TEXTS[0]);
		app.rename('notes/c.md', 'notes/c.txt');
		await plugin.engine.engine.settled();
		expect(await live()).toEqual([]);
		plugin.unload();
	});
});
