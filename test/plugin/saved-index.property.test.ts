// @vitest-environment happy-dom
/**
 * The plugin's saved search index (IndexedDB, here fake-indexeddb): build and save, change the
 * vault while the plugin is closed (writes, creates, deletes, renames — Obsidian's metadata cache
 * already current when the plugin starts again, as in Obsidian), then restore and reconcile:
 * every search answer and pack equals a fresh build's, and the index was restored, not rebuilt.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import { SearchIndex } from '../../src/core/search/search-index';
import { engineConfigOf, mergeSettings } from '../../src/ui/plugin-settings';
import { FakeApp } from './fake-app';
import { loadPlugin, settle } from './harness';
import { useInThreadWorkers } from './in-thread-worker';
import { answers, changeOf, op, TEXTS, type Op } from './vault-changes';
import type VaultQueryPlugin from '../../src/main';

const SAVED = { excludedFolders: ['archive/'] };
/** Files older than the racy window, as a vault's files are when Obsidian starts. */
const OLD = Date.parse('2026-01-01T00:00:00Z');

/** One change made while the plugin is closed: the file and Obsidian's cache change, no event reaches a plugin. */
function applyClosed(app: FakeApp, o: Op): void {
	const change = changeOf(app, o);
	if (change === null) return;
	const isNote = (path: string): boolean => path.endsWith('.md');
	switch (change.kind) {
		case 'create':
			app.vault.add(change.path, change.text);
			if (isNote(change.path)) app.metadataCache.parse(change.path, change.text);
			break;
		case 'write':
			app.vault.setText(change.path, change.text);
			if (isNote(change.path)) app.metadataCache.parse(change.path, change.text);
			break;
		case 'rename':
			app.vault.move(change.path, change.to);
			app.metadataCache.drop(change.path);
			if (isNote(change.to)) app.metadataCache.parse(change.to, app.vault.textOf(change.to) ?? '');
			break;
		case 'delete':
			app.vault.remove(change.path);
			app.metadataCache.drop(change.path);
	}
	app.metadataCache.relink();
}

/** Starts the plugin as Obsidian does on a vault it has opened before: the metadata cache is already filled. */
export async function startPlugin(app: FakeApp): Promise<VaultQueryPlugin> {
	const plugin = await loadPlugin(app, SAVED);
	app.layoutReady();
	await plugin.engine.searchIndex();
	await plugin.engine.settled();
	return plugin;
}

/** A vault of old files (outside the racy window), its metadata cache filled. */
export function oldVault(): FakeApp {
	const files = {
		'notes/alpha.md': TEXTS[0],
		'beta.md': TEXTS[1],
		'notes/deep/gamma.md': TEXTS[2],
		'archive/delta.md': TEXTS[4],
		'weather.md': TEXTS[3],
	};
	const app = new FakeApp(files, {
		mtimes: Object.fromEntries(Object.keys(files).map((p, i) => [p, OLD + i * 1000])),
	});
	app.indexAll();
	return app;
}

describe('the plugin saved index (property)', () => {
	it('after random writes, creates, deletes and renames while closed, the restored and reconciled index answers as a fresh build', async () => {
		const build = vi.spyOn(SearchIndex, 'build');
		await fc.assert(
			fc.asyncProperty(fc.array(op, { minLength: 0, maxLength: 12 }), async (ops) => {
				const app = oldVault();
				const first = await startPlugin(app);
				await first.engine.savesSettled();
				expect(first.engine.saved?.log).toContain(`saved (${app.vault.getMarkdownFiles().length} notes)`);
				first.unload();
				for (const o of ops) applyClosed(app, o);
				build.mockClear();
				const second = await startPlugin(app);
				expect(build).not.toHaveBeenCalled(); // restored, not rebuilt
				expect(second.engine.saved?.log.some((l) => l.startsWith('restored ('))).toBe(true);
				const fresh = new VaultEngine(second.engine.source, engineConfigOf(mergeSettings(SAVED)));
				expect(await answers(second.engine)).toEqual(await answers(fresh));
				await settle();
				second.unload();
			}),
			{ numRuns: 40 },
		);
		build.mockRestore();
	}, 120_000);

	it('after random changes while closed, a re-save in the index worker restores at the next start as a fresh build', async () => {
		const undo = useInThreadWorkers();
		const build = vi.spyOn(SearchIndex, 'build');
		try {
			await fc.assert(
				fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
					const app = oldVault();
					(await startPlugin(app)).unload();
					for (const o of ops) applyClosed(app, o);
					const second = await startPlugin(app);
					expect(await second.engine.saveNow()).toBe(true);
					expect(second.engine.saved?.log.at(-1)).toMatch(/^saved \(\d+ notes\) by a worker/);
					second.unload();
					build.mockClear();
					const third = await startPlugin(app);
					expect(build).not.toHaveBeenCalled(); // restored, not rebuilt
					const fresh = new VaultEngine(third.engine.source, engineConfigOf(mergeSettings(SAVED)));
					expect(await answers(third.engine)).toEqual(await answers(fresh));
					const { indexed, skipped, exclusions } = fresh.status();
					expect(third.engine.status()).toMatchObject({ indexed, skipped, exclusions });
					await settle();
					third.unload();
				}),
				{ numRuns: 30 },
			);
		} finally {
			build.mockRestore();
			undo();
		}
	}, 120_000);
});
