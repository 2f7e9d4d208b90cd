// @vitest-environment happy-dom
/**
 * What the plugin does with a saved search index it cannot trust — cut short, garbled, of another
 * format version, of another plugin version, of another vault: it rebuilds, answers as a fresh
 * build, and saves the new index over it — and with an IndexedDB that fails (a private window, a
 * full quota): it builds in memory and says so in one notice, however many saves follow.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import { partKey } from '../../src/core/snapshot/index-parts';
import { SearchIndex } from '../../src/core/search/search-index';
import VaultQueryPlugin from '../../src/main';
import { databaseName, IndexedDbStore } from '../../src/obsidian/idb-store';
import { engineConfigOf, mergeSettings } from '../../src/ui/plugin-settings';
import { FakeApp } from './fake-app';
import { MANIFEST, startPlugin } from './harness';

const KEY = partKey('vault', 'search');
const OLD = Date.parse('2026-01-01T00:00:00Z');
const FILES: Record<string, string> = {
	'notes/alpha.md': '---\ntags: [zebra]\n---\nZebra migration notes. See [[beta]].',
	'beta.md': 'Stripes and savannah, [[notes/alpha]].',
	'gamma.md': '# Crossing\n\nZebra crossing rules.',
};
const QUERIES = ['zebra', 'savannah', 'crossing', 'backlinks:alpha'];

afterEach(() => {
	vi.restoreAllMocks();
	document.body.empty();
});

function vault(files = FILES, appId?: string): FakeApp {
	const app = new FakeApp(files, { appId, mtimes: Object.fromEntries(Object.keys(files).map((p) => [p, OLD])) });
	app.indexAll();
	return app;
}

/** Loads and starts the plugin (metadata cache already filled), its index built or restored and reconciled. */
function start(app: FakeApp, version = MANIFEST.version): Promise<VaultQueryPlugin> {
	return startPlugin(app, { version });
}

/** The saved index of `app`'s vault, as IndexedDB holds it: its bytes and note count. */
async function record(app: FakeApp): Promise<{ bytes: Uint8Array; notes: number }> {
	const store = new IndexedDbStore(databaseName(app.appId, app.vault.getName()));
	const bytes = await store.load(KEY);
	const info = await store.info(KEY);
	store.close();
	if (bytes === null || info === null) throw new Error('nothing saved');
	return { bytes, notes: info.notes };
}

/** Replaces the saved bytes (in `into`'s database). */
async function tamper(app: FakeApp, change: (bytes: Uint8Array) => Uint8Array, into: FakeApp = app): Promise<void> {
	const saved = await record(app);
	const store = new IndexedDbStore(databaseName(into.appId, into.vault.getName()));
	await store.save(KEY, change(saved.bytes.slice()), saved.notes);
	store.close();
}

/** Where section `name` of a saved part lies in its bytes (the part's header table, part-codec.ts). */
function sectionOf(bytes: Uint8Array, name: string): { offset: number; length: number } {
	const view = new DataView(bytes.buffer, bytes.byteOffset);
	const headerLength = view.getUint32(16, true);
	const header = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + headerLength))) as {
		sections: Record<string, [number, number]>;
	};
	const [at, length] = header.sections[name]!;
	return { offset: 16 + Math.ceil((4 + headerLength) / 8) * 8 + at, length };
}

async function answers(search: (q: string) => Promise<{ results: { path: string; backlinks?: unknown }[] }>) {
	const out: Record<string, unknown> = {};
	for (const q of QUERIES) out[q] = (await search(q)).results.map((h) => [h.path, h.backlinks]);
	return out;
}

/** The plugin answers as an engine built afresh over its source; `before` runs between the two (counting the plugin's builds). */
async function expectFreshAnswers(plugin: VaultQueryPlugin, before?: () => void): Promise<void> {
	const mine = await answers((q) => plugin.engine.search(q, { limit: 20 }));
	before?.();
	const fresh = new VaultEngine(plugin.engine.source, engineConfigOf(mergeSettings(null)));
	expect(mine).toEqual(await answers((q) => fresh.search(q, { limit: 20 })));
}

/** Saves once, damages the saved bytes, starts again: rebuilt (one build), answers as fresh, saved anew. */
async function rebuiltAfter(change: (bytes: Uint8Array) => Uint8Array, why: RegExp): Promise<void> {
	const app = vault();
	const first = await start(app);
	expect((await record(app)).notes).toBe(3);
	first.unload();
	await tamper(app, change);
	const build = vi.spyOn(SearchIndex, 'build');
	const second = await start(app);
	// A part garbled past its header is found out when a search reads it.
	await expectFreshAnswers(second, () => expect(build).toHaveBeenCalledTimes(1));
	await second.engine.savesSettled();
	expect(second.engine.saved?.log.join('\n')).toMatch(why);
	expect(second.engine.saved?.log.at(-1)).toBe('saved (3 notes)');
	second.unload();
	// What was saved over the damaged part restores.
	build.mockClear();
	const third = await start(app);
	expect(build).not.toHaveBeenCalled();
	await expectFreshAnswers(third);
	third.unload();
}

describe('the plugin saved index, damaged or foreign', () => {
	it('restores an intact saved index without building', async () => {
		const app = vault();
		(await start(app)).unload();
		const build = vi.spyOn(SearchIndex, 'build');
		const plugin = await start(app);
		expect(build).not.toHaveBeenCalled();
		expect(plugin.engine.saved?.log).toContain('restored (0 notes to reconcile)');
		await expectFreshAnswers(plugin);
		plugin.unload();
	});

	it('rebuilds a saved index cut short', async () => {
		await rebuiltAfter((b) => b.subarray(0, Math.floor(b.length / 2)), /truncated/);
	});

	it('rebuilds a saved index garbled past its header', async () => {
		await rebuiltAfter((b) => b.fill(0xa5, Math.floor(b.length / 4)), /damaged|unreadable|fit|failed its check/);
	});

	it('rebuilds a saved index whose notes’ stamps are damaged (found after its first answers, when they are compared)', async () => {
		await rebuiltAfter((b) => {
			const { offset, length } = sectionOf(b, 'stamps');
			b.fill(0x5a, offset, offset + length);
			return b;
		}, /block 0 of stamps failed its check/);
	});

	it('rebuilds a saved index of another format version', async () => {
		await rebuiltAfter((b) => {
			new DataView(b.buffer, b.byteOffset).setUint32(4, 99, true);
			return b;
		}, /part: format version 99/);
	});

	it('rebuilds a saved index of another plugin version', async () => {
		const app = vault();
		(await start(app, '0.0.1')).unload();
		const build = vi.spyOn(SearchIndex, 'build');
		const plugin = await start(app);
		expect(build).toHaveBeenCalledTimes(1);
		expect(plugin.engine.saved?.log.join('\n')).toMatch(/saved by another build/);
		plugin.unload();
	});

	it("rebuilds another vault's saved index put in this vault's database", async () => {
		const other = vault({ 'zebra.md': 'Zebra, zebra, zebra.' }, 'other-vault');
		(await start(other)).unload();
		const app = vault(FILES, 'this-vault');
		await tamper(other, (b) => b, app);
		const build = vi.spyOn(SearchIndex, 'build');
		const plugin = await start(app);
		expect(build).toHaveBeenCalledTimes(1);
		expect(plugin.engine.saved?.log.join('\n')).toMatch(/saved with other settings/);
		await expectFreshAnswers(plugin);
		plugin.unload();
	});
});

describe('the plugin saved index after edits', () => {
	it('leaves a few edits to the next start (which re-indexes them) and saves after many', async () => {
		const app = vault();
		const plugin = await start(app);
		const saves = (): number => plugin.engine.saved?.log.filter((l) => l.startsWith('saved (')).length ?? 0;
		expect(saves()).toBe(1);
		app.modify('beta.md', 'Savannah only, no stripes.');
		await plugin.engine.settled();
		await plugin.engine.savesSettled();
		expect(saves()).toBe(1); // one edit: not worth encoding the whole index again
		plugin.unload();

		const build = vi.spyOn(SearchIndex, 'build');
		const again = await start(app);
		expect(again.engine.saved?.log).toContain('restored (1 notes to reconcile)');
		await expectFreshAnswers(again, () => expect(build).not.toHaveBeenCalled());
		for (let i = 0; i < 33; i++) app.create(`batch/note ${i}.md`, `Zebra number ${i}.`);
		await again.engine.settled();
		await again.engine.savesSettled();
		expect(again.engine.saved?.log.filter((l) => l.startsWith('saved ('))).toEqual(['saved (36 notes)']);
		again.unload();
	});

	it('in a larger vault, waits for one in 50 of its notes changed before saving the whole index again', async () => {
		const files = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`n/${i}.md`, `Note ${i} of many.`]));
		const app = vault(files);
		const plugin = await start(app);
		const saves = (): number => plugin.engine.saved?.log.filter((l) => l.startsWith('saved (')).length ?? 0;
		expect(saves()).toBe(1);
		const edit = async (from: number, to: number): Promise<void> => {
			for (let i = from; i < to; i++) app.modify(`n/${i}.md`, `Note ${i} edited, quokka.`);
			await plugin.engine.settled();
			await plugin.engine.savesSettled();
		};
		await edit(0, 40); // more than 32 (the least), not more than 2,000 / 50
		expect(saves()).toBe(1);
		expect((await plugin.engine.search('quokka', { limit: 100 })).results).toHaveLength(40);
		await edit(40, 41);
		expect(saves()).toBe(2);
		plugin.unload();
	});

	it('folds many edits into the index in the background, so the next search does not do it in one block', async () => {
		const files = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`n/${i}.md`, `Note ${i} of a few.`]));
		const app = vault(files);
		const plugin = await start(app);
		const index = plugin.engine.engine.builtSearchIndex!.index;
		const folds = vi.spyOn(plugin.engine.engine, 'foldSearchEdits');
		for (let i = 0; i < 40; i++) app.modify(`n/${i}.md`, `Note ${i} edited, wombat.`);
		await plugin.engine.settled(); // the edits
		await plugin.engine.savesSettled(); // the fold, in the saves' chain before the save the edits asked for
		expect(folds).toHaveBeenCalledTimes(1);
		await expect(folds.mock.results[0]!.value).resolves.toBe(true); // it compacted, not the save after it
		expect(index.hasStalePostings).toBe(false);
		const compactions = vi.spyOn(index, 'compactSteps');
		expect((await plugin.engine.search('wombat', { limit: 100 })).results).toHaveLength(40);
		expect(compactions).not.toHaveBeenCalled(); // the search found nothing left to fold
		plugin.unload();
	});
});

describe('the plugin saved index with a failing IndexedDB', () => {
	const notices = (): string[] => [...document.querySelectorAll('.notice-message')].map((el) => el.textContent ?? '');

	it('builds in memory with one notice when IndexedDB cannot be opened (a private window)', async () => {
		vi.spyOn(indexedDB, 'open').mockImplementation(() => {
			throw new DOMException('The user denied permission to access the database.', 'SecurityError');
		});
		const app = vault();
		const plugin = await start(app);
		await expectFreshAnswers(plugin);
		app.modify('beta.md', 'Savannah only.');
		await plugin.engine.settled();
		await plugin.engine.savesSettled();
		await plugin.engine.rebuild();
		await plugin.engine.savesSettled();
		expect(notices().filter((n) => n.includes('could not use its saved search index'))).toHaveLength(1);
		expect(notices()[0]).toMatch(/denied permission/);
		await expectFreshAnswers(plugin);
		plugin.unload();
	});

	it('builds in memory with one notice when saving fails (quota)', async () => {
		vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
			throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
		});
		const app = vault();
		const plugin = await start(app);
		app.modify('beta.md', 'Savannah only.');
		await plugin.engine.settled();
		await plugin.engine.saveNow();
		expect(notices().filter((n) => n.includes('could not use its saved search index'))).toHaveLength(1);
		expect(notices()[0]).toMatch(/quota/);
		expect(plugin.engine.saved?.usable).toBe(false);
		await expectFreshAnswers(plugin);
		plugin.unload();
	});
});
