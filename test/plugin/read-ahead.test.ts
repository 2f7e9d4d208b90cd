// @vitest-environment happy-dom
/**
 * A restart re-indexes the notes changed while Obsidian was closed with their reads a few ahead of
 * the note being indexed, never all at once; a text read ahead is used only while the note is as
 * it was when its read began — an edit meanwhile ends with the edit in the index. A search asked
 * meanwhile is answered first: the next note waits until it is out.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReadAhead } from '../../src/obsidian/read-ahead';
import type { ObsidianNoteSource } from '../../src/obsidian/source';
import type { TFile } from 'obsidian';
import { FakeApp } from './fake-app';
import { loadPlugin, startPlugin, unloadLoadedPlugins } from './harness';

const OLD = Date.parse('2026-01-01T00:00:00Z');

afterEach(() => unloadLoadedPlugins());

/** A source of `count` notes whose reads wait until released, counting those in flight. */
function slowSource(count: number): {
	source: ObsidianNoteSource;
	paths: string[];
	stats: Map<string, { size: number; mtime: number; ctime: number }>;
	pending: Map<string, { resolve: (text: string) => void; reject: (error: Error) => void }>;
	started: string[];
} {
	const paths = Array.from({ length: count }, (_, i) => `n${i}.md`);
	const stats = new Map(paths.map((p) => [p, { size: 10, mtime: OLD, ctime: OLD }]));
	const pending = new Map<string, { resolve: (text: string) => void; reject: (error: Error) => void }>();
	const started: string[] = [];
	const source = {
		statOf: (path: string) => stats.get(path) ?? null,
		read: (path: string) =>
			new Promise<string>((resolve, reject) => {
				started.push(path);
				pending.set(path, { resolve, reject });
			}),
	} as unknown as ObsidianNoteSource;
	return { source, paths, stats, pending, started };
}

describe('the reads of the notes a restart re-indexes', () => {
	it('run a few ahead of the note being indexed, not all at once', async () => {
		const { source, paths, pending, started } = slowSource(30);
		const ahead = new ReadAhead(source, paths);
		const first = ahead.textOf(0);
		expect(started).toEqual(paths.slice(0, 9)); // the note asked and eight after it
		pending.get('n0.md')!.resolve('zero');
		expect(await first).toBe('zero');
		const second = ahead.textOf(1);
		expect(started).toHaveLength(10); // one more as one is taken
		pending.get('n1.md')!.resolve('one');
		expect(await second).toBe('one');
	});

	it('reads a note again (undefined) when it changed, went or failed after its read began', async () => {
		const { source, paths, stats, pending, started } = slowSource(4);
		const ahead = new ReadAhead(source, paths);
		const texts = [0, 1, 2, 3].map((i) => ahead.textOf(i));
		stats.set('n1.md', { size: 12, mtime: OLD + 5, ctime: OLD }); // edited while its read was in flight
		stats.delete('n2.md'); // deleted
		for (const path of ['n0.md', 'n1.md', 'n2.md']) pending.get(path)!.resolve(`text of ${path}`);
		pending.get('n3.md')!.reject(new Error('EIO'));
		expect(await Promise.all(texts)).toEqual(['text of n0.md', undefined, undefined, undefined]);
		expect(started).toHaveLength(4);
	});

	it('start no read for a note that is gone before its turn', async () => {
		const { source, paths, stats, started } = slowSource(3);
		stats.delete('n1.md');
		const ahead = new ReadAhead(source, paths);
		void ahead.textOf(0);
		expect(started).toEqual(['n0.md', 'n2.md']);
		expect(await ahead.textOf(1)).toBeUndefined();
	});
});

describe('a restart that re-indexes notes changed while closed', () => {
	it('reads several at once, and an edit made while a note’s read is in flight ends in the index', async () => {
		const files: Record<string, string> = {};
		for (let i = 0; i < 60; i++) files[`notes/n${i}.md`] = `# Note ${i}\n\nplain words ${i}\n`;
		const app = new FakeApp(files, { mtimes: Object.fromEntries(Object.keys(files).map((p) => [p, OLD])) });
		app.indexAll();
		(await startPlugin(app)).unload();
		for (let i = 0; i < 20; i++) app.modify(`notes/n${i}.md`, `# Note ${i}\n\nchanged while closed ${i} marmot\n`);

		// Reads that wait for the test: how many are in flight at once, and one edit made while a read is.
		const read = app.vault.cachedRead.bind(app.vault);
		let inFlight = 0;
		let most = 0;
		let edited = false;
		const changed = new Set(Array.from({ length: 20 }, (_, i) => `notes/n${i}.md`));
		app.vault.cachedRead = async (file: TFile) => {
			if (!changed.has(file.path)) return read(file);
			inFlight++;
			most = Math.max(most, inFlight);
			await new Promise((resolve) => window.setTimeout(resolve, 0));
			const text = await read(file);
			if (file.path === 'notes/n5.md' && !edited) {
				edited = true; // Obsidian saves an edit while this (older) text is on its way
				app.modify('notes/n5.md', '# Note 5\n\nedited during the reconcile capybara\n');
			}
			inFlight--;
			return text;
		};
		const plugin = await loadPlugin(app);
		app.layoutReady();
		await plugin.engine.searchIndex();
		await plugin.engine.search('marmot', { limit: 100 });
		await plugin.engine.settled();
		await new Promise((resolve) => window.setTimeout(resolve, 0));
		await plugin.engine.settled();

		expect(plugin.engine.saved?.log.some((l) => l.startsWith('restored (20 notes'))).toBe(true);
		expect(edited).toBe(true);
		expect(most).toBeGreaterThan(1);
		// Nine read ahead (the note in hand and eight after it), and at most one read by the engine's own queue (n5 read again).
		expect(most).toBeLessThanOrEqual(10);
		const marmots = (await plugin.engine.search('marmot', { limit: 100 })).results.map((h) => h.path);
		expect(marmots).toHaveLength(19);
		expect(marmots).not.toContain('notes/n5.md');
		const capybara = (await plugin.engine.search('capybara', { limit: 10 })).results.map((h) => h.path);
		expect(capybara).toEqual(['notes/n5.md']);
	});

	it('holds its next note while a search is being answered, and goes on once it is out', async () => {
		const files: Record<string, string> = {};
		for (let i = 0; i < 60; i++) files[`notes/n${i}.md`] = `# Note ${i}\n\nplain words ${i}\n`;
		files['notes/zebra.md'] = '# Zebra\n\nzebra stripes\n';
		const app = new FakeApp(files, { mtimes: Object.fromEntries(Object.keys(files).map((p) => [p, OLD])) });
		app.indexAll();
		(await startPlugin(app)).unload();
		for (let i = 0; i < 30; i++) app.modify(`notes/n${i}.md`, `# Note ${i}\n\nchanged while closed ${i} marmot\n`);

		// The search's read of its hit waits for the test; the changed notes' reads take ten turns each.
		const read = app.vault.cachedRead.bind(app.vault);
		let release: () => void = () => undefined;
		const held = new Promise<void>((resolve) => (release = resolve));
		app.vault.cachedRead = async (file: TFile) => {
			if (file.path === 'notes/zebra.md') await held;
			else for (let turns = 0; turns < 10; turns++) await new Promise((resolve) => window.setTimeout(resolve, 0));
			return read(file);
		};
		const plugin = await loadPlugin(app);
		const upsert = vi.spyOn(plugin.engine.engine, 'upsert');
		app.layoutReady();
		await plugin.engine.searchIndex();
		const turn = (): Promise<void> => new Promise((resolve) => window.setTimeout(resolve, 0));
		for (let turns = 0; upsert.mock.calls.length === 0 && turns < 10_000; turns++) await turn();
		expect(upsert.mock.calls.length).toBeGreaterThan(0); // the re-index has begun

		const searching = plugin.engine.search('zebra', { limit: 5 });
		const atSearch = upsert.mock.calls.length;
		for (let turns = 0; turns < 200; turns++) await turn(); // many notes' worth of turns
		expect(upsert.mock.calls.length).toBeLessThanOrEqual(atSearch + 1); // at most the note in hand
		release();
		expect((await searching).results.map((h) => h.path)).toEqual(['notes/zebra.md']);
		await plugin.engine.settled();
		expect(upsert.mock.calls.length).toBe(30);
		expect((await plugin.engine.search('marmot', { limit: 100 })).results).toHaveLength(30);
	});
});
