// @vitest-environment happy-dom
/**
 * After a restart the first search answers from the restored index before the work that goes
 * over every note: the stat of each note, the comparison of the saved notes with the vault's and
 * the count of skipped notes run after it, in slices, while the answer says the index is being
 * brought up to date — and once they have run, the notes changed meanwhile are re-indexed and the
 * answers equal a fresh build's. Counted, not timed: a clock that moves a fixed step at each read
 * makes each slice a fixed number of steps.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import { SearchIndex } from '../../src/core/search/search-index';
import { browserCodecHost } from '../../src/obsidian/browser-codec';
import { IndexedDbStore } from '../../src/obsidian/idb-store';
const STILL_CHECKING =
	'the saved search index is being brought up to date: the notes changed since it was saved are not known yet';
import { engineConfigOf, mergeSettings } from '../../src/ui/plugin-settings';
import { FakeApp } from './fake-app';
import { loadPlugin, startPlugin, unloadLoadedPlugins } from './harness';

const NOTES = 2500; // more than one step of the stat pass (2,048 notes a step)
const OLD = Date.parse('2026-01-01T00:00:00Z');

afterEach(() => {
	unloadLoadedPlugins();
	vi.restoreAllMocks();
	document.body.empty();
});

/** `NOTES` notes, a few of them about zebras. */
function files(): Record<string, string> {
	const out: Record<string, string> = {};
	for (let i = 0; i < NOTES; i++)
		out[`folder${i % 7}/note ${i}.md`] =
			`# Note ${i}\n\n${i % 50 === 0 ? 'zebra ' : ''}word${i % 311} word${i % 97} [[note ${(i + 1) % NOTES}]]\n`;
	return out;
}

/** The paths of a search's hits. */
async function hits(search: (q: string) => Promise<{ results: { path: string }[] }>, q: string): Promise<string[]> {
	return (await search(q)).results.map((h) => h.path);
}

/** The test vault on a fake app whose plugin built and saved its index, then was unloaded. */
async function appWithSavedIndex(): Promise<FakeApp> {
	const all = files();
	const app = new FakeApp(all, { mtimes: Object.fromEntries(Object.keys(all).map((p) => [p, OLD])) });
	app.indexAll();
	(await startPlugin(app)).unload();
	return app;
}

describe('the first search after a restart', () => {
	it('answers before the stat of every note, the comparison with the saved notes and the skip count, then reconciles', async () => {
		const app = await appWithSavedIndex();
		app.modify('folder1/note 1.md', '# Note 1\n\nzebra herds crossing');

		const build = vi.spyOn(SearchIndex, 'build');
		const recount = vi.spyOn(SearchIndex.prototype, 'recountSkippedSteps');
		const plugin = await loadPlugin(app);
		const stat = vi.spyOn(plugin.engine.source, 'statOf');
		// A clock that moves 4 ms at each read: an 8 ms slice is two steps, whatever the machine.
		let now = OLD + 86_400_000; // clock-ok: the start of a fake clock that moves 4 ms a read
		vi.spyOn(Date, 'now').mockImplementation(() => (now += 4));
		app.layoutReady();
		await plugin.engine.searchIndex();
		const first = await plugin.engine.search('zebra', { limit: 100 });
		expect(build).not.toHaveBeenCalled(); // restored
		expect(first.status).toBe('partial');
		expect(first.limitations).toContain(STILL_CHECKING);
		expect(stat.mock.calls.length).toBeLessThan(NOTES); // not every note's stat before the answer
		expect(recount).not.toHaveBeenCalled();
		expect(plugin.engine.saved?.log.some((l) => l.startsWith('restored ('))).toBe(false);
		expect(first.results.map((h) => h.path)).not.toContain('folder1/note 1.md'); // the edit is not in yet

		await plugin.engine.settled();
		vi.mocked(Date.now).mockRestore();
		expect(stat.mock.calls.length).toBeGreaterThanOrEqual(NOTES);
		expect(recount).toHaveBeenCalledTimes(1);
		expect(plugin.engine.saved?.log).toContain('restored (1 notes to reconcile)');
		const settled = await plugin.engine.search('zebra', { limit: 100 });
		expect(settled.limitations).not.toContain(STILL_CHECKING);
		const fresh = new VaultEngine(plugin.engine.source, engineConfigOf(mergeSettings(null)));
		const search = (q: string) => fresh.search(q, { limit: 100 });
		expect(settled.results.map((h) => h.path)).toEqual(await hits(search, 'zebra'));
		expect(settled.results.map((h) => h.path)).toContain('folder1/note 1.md');
		expect(settled.status).toBe((await search('zebra')).status);
	});
});

describe('the restore at a restart', () => {
	it('reads the saved index while the note list is made, and hands the index out once both are done', async () => {
		const app = await appWithSavedIndex();

		const events: string[] = [];
		const read = vi.spyOn(IndexedDbStore.prototype, 'loadLazy');
		read.mockImplementation(function (this: IndexedDbStore, key, deferred) {
			events.push('read started');
			read.mockRestore(); // the real read from here on
			return this.loadLazy(key, deferred);
		});
		const plugin = await loadPlugin(app);
		const source = plugin.engine.source;
		const prepare = source.prepareNotes.bind(source);
		vi.spyOn(source, 'prepareNotes').mockImplementation(async (slice) => {
			await prepare(slice);
			events.push('notes listed');
		});
		app.layoutReady();
		await plugin.engine.searchIndex();
		events.push('index handed');
		expect(events).toEqual(['read started', 'notes listed', 'index handed']);
		expect(plugin.engine.saved?.log).not.toContainEqual(expect.stringMatching(/^built/)); // restored
		await plugin.engine.settled();
	});

	it('parses the saved list of notes once: the comparison with the vault takes the list the restore parsed', async () => {
		const app = await appWithSavedIndex();
		app.modify('folder1/note 1.md', '# Note 1\n\nzebra herds crossing');

		let decoded = 0;
		const decode = browserCodecHost.decode.bind(browserCodecHost);
		vi.spyOn(browserCodecHost, 'decode').mockImplementation((bytes, from, to) => {
			decoded += to - from;
			return decode(bytes, from, to);
		});
		const plugin = await loadPlugin(app);
		app.layoutReady();
		await plugin.engine.searchIndex();
		await plugin.engine.settled();
		expect(plugin.engine.saved?.log).toContain('restored (1 notes to reconcile)');
		// The part holds the list twice (the index's notes, the stamped notes): decoded once, plus the small sections.
		const listBytes = new TextEncoder().encode(JSON.stringify(Object.keys(files()))).length;
		expect(decoded).toBeGreaterThanOrEqual(listBytes);
		expect(decoded).toBeLessThan(1.5 * listBytes);
	});
});

describe('the skipped notes after a restart', () => {
	it('counts again only the notes changed since the save, and lists what a fresh build lists', async () => {
		const broken = '---\ntags: [unclosed\ntitle: x\n---\nZebra body.';
		const files: Record<string, string> = {
			'bad.md': broken,
			'gone.md': broken,
			'stays-bad.md': broken,
			'good.md': 'Zebra, fine.',
			'other.md': 'Savannah zebra.',
		};
		const app = new FakeApp(files, { mtimes: Object.fromEntries(Object.keys(files).map((p) => [p, OLD])) });
		app.indexAll();
		(await startPlugin(app)).unload();
		app.modify('bad.md', 'Zebra, fixed.');
		app.modify('good.md', broken);
		app.create('new.md', broken);
		app.delete('gone.md');

		const counted: string[] = [];
		const plugin = await loadPlugin(app);
		const source = plugin.engine.source;
		const reasonOf = source.getSkipReason.bind(source);
		vi.spyOn(source, 'getSkipReason').mockImplementation((path) => (counted.push(path), reasonOf(path)));
		app.layoutReady();
		await plugin.engine.searchIndex();
		await plugin.engine.settled();
		const mine = await plugin.engine.search('zebra', { limit: 20 });
		expect(counted).not.toContain('other.md'); // unchanged since the save: its count is the saved one
		const fresh = new VaultEngine(source, engineConfigOf(mergeSettings(null)));
		const theirs = await fresh.search('zebra', { limit: 20 });
		expect(mine.skipped).toEqual(theirs.skipped);
		expect(mine.skipped.map((s) => s.path).sort()).toEqual(['good.md', 'new.md', 'stays-bad.md']);
		expect(mine.results.map((h) => h.path)).toEqual(theirs.results.map((h) => h.path));
	});
});
