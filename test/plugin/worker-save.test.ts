// @vitest-environment happy-dom
/**
 * The index worker saves the part it encoded into IndexedDB itself, where it has IndexedDB (a Web
 * Worker; here the worker's handler runs on this thread, which has fake-indexeddb): none of the
 * part crosses to the main thread, which restores the index from the database as a restart does,
 * answering as a build on the main thread; a restart then restores the same part. When the
 * worker's save fails, the part comes to the main thread instead: the index answers from memory
 * and one notice says the saved index could not be used.
 */
import { describe, expect, it, vi } from 'vitest';
import { partKey } from '../../src/core/snapshot/index-parts';
import type VaultQueryPlugin from '../../src/main';
import { databaseName, IndexedDbStore } from '../../src/obsidian/idb-store';
import { indexWorkers } from '../../src/obsidian/worker-host';
import { FakeApp } from './fake-app';
import { startPlugin } from './harness';
import { fromWorkers, inThreadWorkersInEachTest } from './in-thread-worker';

const OLD = Date.parse('2026-01-01T00:00:00Z');
const QUERIES = ['zebra', 'harbor lantern', 'stripes', 'tag:animal', 'backlinks:note 3'];

inThreadWorkersInEachTest();

/** Sixty notes of a few words, tags and links. */
function vault(appId: string): FakeApp {
	const words = ['zebra', 'harbor', 'lantern', 'stripes', 'maple', 'orbit'];
	const files: Record<string, string> = {};
	for (let i = 0; i < 60; i++) {
		const body = Array.from({ length: 12 }, (_, w) => words[(i * 7 + w * 3) % words.length]).join(' ');
		files[`area${i % 3}/note ${i}.md`] =
			`---\ntags: [${i % 4 === 0 ? 'animal' : 'place'}]\n---\n# Note ${i}\n\n${body} [[note ${(i + 3) % 60}]]\n`;
	}
	const app = new FakeApp(files, { appId, mtimes: Object.fromEntries(Object.keys(files).map((p) => [p, OLD])) });
	app.indexAll();
	return app;
}

async function answers(plugin: VaultQueryPlugin): Promise<unknown[]> {
	const out: unknown[] = [];
	for (const q of QUERIES) {
		const r = await plugin.engine.search(q, { limit: 30 });
		out.push([q, r.status, r.results.map((h) => [h.path, h.score])]);
	}
	return out;
}

const notices = (): string[] => [...document.querySelectorAll('.notice-message')].map((el) => el.textContent ?? '');

describe('the index worker saving its part itself', () => {
	it('saves it into IndexedDB, sends none of it to the main thread, and a restart restores it', async () => {
		const app = vault('worker-saves');
		const plugin = await start(app);
		expect(plugin.engine.saved?.log).toEqual([
			'built in a worker (0 notes to reconcile)',
			'saved (60 notes) by the worker',
		]);
		expect(fromWorkers).toContain('saved');
		expect(fromWorkers).not.toContain('part');
		const store = new IndexedDbStore(databaseName(app.appId, app.vault.getName()));
		expect(await store.info(partKey('vault', 'search'))).toMatchObject({ notes: 60 });
		store.close();
		const built = await answers(plugin);
		expect(built.filter((a) => (a as unknown[][])[2]!.length > 0).length).toBeGreaterThanOrEqual(4);

		indexWorkers.code = null; // a main-thread build of the same vault answers the same
		const inMemory = await start(vault('main-thread'));
		expect(inMemory.engine.saved?.log[0]).toMatch(/^built on the main thread/);
		expect(await answers(inMemory)).toEqual(built);

		fromWorkers.length = 0;
		const again = await start(app);
		expect(again.engine.saved?.log).toContain('restored (0 notes to reconcile)');
		expect(fromWorkers).toEqual([]); // restored: no worker started
		expect(await answers(again)).toEqual(built);
	});

	it('sends the part to the main thread when its save fails: the index answers, and one notice says so', async () => {
		const save = vi.spyOn(IndexedDbStore.prototype, 'save').mockRejectedValue(new Error('QuotaExceededError'));
		const plugin = await start(vault('worker-save-fails'));
		expect(save).toHaveBeenCalledTimes(1);
		expect(fromWorkers).toContain('save-failed');
		expect(fromWorkers.filter((type) => type === 'part').length).toBeGreaterThan(0);
		expect(plugin.engine.saved?.log).toEqual([
			'failed: QuotaExceededError',
			'built in a worker (0 notes to reconcile)',
		]);
		expect(notices().filter((n) => n.includes('could not use its saved search index'))).toHaveLength(1);
		expect((await answers(plugin)).filter((a) => (a as unknown[][])[2]!.length > 0).length).toBeGreaterThanOrEqual(
			4,
		);
	});
});

function start(app: FakeApp): Promise<VaultQueryPlugin> {
	return startPlugin(app);
}
