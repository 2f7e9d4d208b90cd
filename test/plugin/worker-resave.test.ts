// @vitest-environment happy-dom
/**
 * A re-save runs in an index worker (worker-refresh.ts; here the worker's handler runs on this
 * thread, sharing its fake-indexeddb as a Web Worker shares the page's): the worker loads the saved
 * part, re-indexes the notes changed since it was saved and saves it again. A restart then restores
 * a part that reflects those changes with nothing to reconcile, answering as a fresh build. Where
 * the worker cannot (no saved part, a Node worker thread without IndexedDB, a part found damaged),
 * the main thread saves as before.
 */
import { describe, expect, it, vi } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import { IndexParts } from '../../src/core/snapshot/index-parts';
import type VaultQueryPlugin from '../../src/main';
import { engineConfigOf, mergeSettings } from '../../src/ui/plugin-settings';
import { NO_WORKER_STORE } from '../../src/obsidian/worker-protocol';
import { FakeApp } from './fake-app';
import { startPlugin } from './harness';
import { fromWorkers, inThreadWorkersInEachTest } from './in-thread-worker';
import { answers } from './vault-changes';

const OLD = Date.parse('2026-01-01T00:00:00Z');

inThreadWorkersInEachTest();

/** Forty old notes of a few words each. */
function vault(appId: string): FakeApp {
	const words = ['zebra', 'stripes', 'savannah', 'harbor', 'lantern', 'maple', 'orbit'];
	const files: Record<string, string> = {};
	for (let i = 0; i < 40; i++) {
		const body = Array.from({ length: 10 }, (_, w) => words[(i * 5 + w * 3) % words.length]).join(' ');
		files[`area${i % 3}/note ${i}.md`] =
			`---\ntags: [t${i % 4}]\n---\n# Note ${i}\n\n${body} [[note ${(i + 1) % 40}]]\n`;
	}
	const app = new FakeApp(files, { appId, mtimes: Object.fromEntries(Object.keys(files).map((p) => [p, OLD])) });
	app.indexAll();
	return app;
}

/** Edits, a delete and a rename made while the plugin is closed (old mtimes: none is racy). */
function changeWhileClosed(app: FakeApp): void {
	for (const [path, text] of [
		['area0/note 0.md', '# Note 0\n\nquokka quokka lives on an island\n'],
		['area1/note 1.md', '---\ntags: [marsupial]\n---\n# Note 1\n\nzebra quokka\n'],
	] as const) {
		app.vault.setText(path, text);
		app.metadataCache.parse(path, text);
	}
	app.vault.remove('area2/note 2.md');
	app.metadataCache.drop('area2/note 2.md');
	app.vault.move('area0/note 3.md', 'moved/note 3.md');
	app.metadataCache.drop('area0/note 3.md');
	app.metadataCache.parse('moved/note 3.md', app.vault.textOf('moved/note 3.md') ?? '');
	app.metadataCache.relink();
}

/** Answers of a fresh build over the plugin's source now. */
function freshAnswers(plugin: VaultQueryPlugin): Promise<unknown> {
	return answers(new VaultEngine(plugin.engine.source, engineConfigOf(mergeSettings({}))));
}

describe('a re-save in the index worker', () => {
	it('re-indexes the changed notes off the main thread, and a restart restores them with nothing to reconcile', async () => {
		const app = vault('worker-resave');
		(await startPlugin(app)).unload();
		changeWhileClosed(app);

		const second = await startPlugin(app);
		expect(second.engine.saved?.log).toContain('restored (5 notes to reconcile)'); // two edits, a delete, a rename's two paths
		const mainThreadSaves = vi.spyOn(IndexParts.prototype, 'save');
		fromWorkers.length = 0;
		expect(await second.engine.saveNow()).toBe(true);
		expect(second.engine.saved?.log.at(-1)).toBe('saved (39 notes) by a worker (5 re-indexed)');
		expect(fromWorkers).toContain('refreshed');
		expect(fromWorkers).not.toContain('part');
		// One save ran, the worker's (on this thread here, over the index it loaded): none of the engine's index.
		expect(mainThreadSaves).toHaveBeenCalledTimes(1);
		expect(mainThreadSaves.mock.calls[0]![0]).not.toBeInstanceOf(VaultEngine);
		second.unload();

		const third = await startPlugin(app);
		expect(third.engine.saved?.log).toContain('restored (0 notes to reconcile)');
		const got = await answers(third.engine);
		expect(got).toEqual(await freshAnswers(third));
		const quokka = await third.engine.search('quokka', { limit: 5 });
		expect(quokka.results.map((hit) => hit.path).sort()).toEqual(['area0/note 0.md', 'area1/note 1.md']);
	});

	it('saves on the main thread when there is no saved part to refresh', async () => {
		const app = vault('worker-resave-cleared');
		const plugin = await startPlugin(app);
		await plugin.engine.clearSaved();
		expect(await plugin.engine.saveNow()).toBe(true);
		const log = plugin.engine.saved?.log ?? [];
		expect(log.at(-2)).toMatch(/^saved on the main thread: /);
		expect(log.at(-1)).toBe('saved (40 notes)');
		plugin.unload();
		const again = await startPlugin(app);
		expect(again.engine.saved?.log).toContain('restored (0 notes to reconcile)');
	});

	it('clears the saved index asked for while a re-save runs once that re-save is done: nothing is left saved', async () => {
		const app = vault('worker-resave-clear');
		(await startPlugin(app)).unload();
		changeWhileClosed(app);
		const plugin = await startPlugin(app);
		const saving = plugin.engine.saveNow();
		const cleared = plugin.engine.clearSaved();
		expect(await saving).toBe(true);
		expect(await cleared).toBe(true);
		expect(plugin.engine.saved?.log.slice(-2)).toEqual(['saved (39 notes) by a worker (5 re-indexed)', 'cleared']);
		expect(await plugin.engine.savedSummary()).toBeNull();
	});

	it('saves on the main thread once the saved part was found damaged, then leaves the next re-save to a worker', async () => {
		const app = vault('worker-resave-damaged');
		const plugin = await startPlugin(app);
		plugin.engine.saved?.damaged('search', 'a block failed its checksum');
		fromWorkers.length = 0;
		expect(await plugin.engine.saveNow()).toBe(true);
		expect(fromWorkers).toEqual([]); // the damaged part is not refreshed: the index here is saved in its place
		expect(plugin.engine.saved?.log.at(-1)).toBe('saved (40 notes)');
		expect(await plugin.engine.saveNow()).toBe(true);
		expect(plugin.engine.saved?.log.at(-1)).toBe('saved (40 notes) by a worker (0 re-indexed)');
	});

	it('stops asking a worker that has no IndexedDB, and saves on the main thread', async () => {
		const app = vault('worker-resave-no-idb');
		const plugin = await startPlugin(app);
		vi.spyOn(globalThis, 'indexedDB', 'get').mockReturnValueOnce(undefined as unknown as IDBFactory);
		expect(await plugin.engine.saveNow()).toBe(true);
		expect(plugin.engine.saved?.log.slice(-2)).toEqual([
			`saved on the main thread: ${NO_WORKER_STORE}`,
			'saved (40 notes)',
		]);
		fromWorkers.length = 0;
		expect(await plugin.engine.saveNow()).toBe(true);
		expect(fromWorkers).toEqual([]); // not asked again
		expect(plugin.engine.saved?.log.at(-1)).toBe('saved (40 notes)');
	});
});
