// @vitest-environment happy-dom
/**
 * The plugin's search index built in its worker (the bundle main.js inlines, run in a Node worker
 * thread): the main thread only reads notes and restores the index from the part the worker
 * encoded — it runs no step of the build — the answers equal a build on the main thread, the part
 * is saved as the worker encoded it and a restart restores it; where no worker starts or it
 * fails, the plugin builds on the main thread and says so once on the console.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VaultEngine } from '../../src/core/engine/engine';
import type { CachedMetadata } from '../../src/core/metadata';
import { searchMetadataOf } from '../../src/core/search/extract';
import { InvertedIndex } from '../../src/core/search/inverted-index';
import { search } from '../../src/core/search/search';
import { SearchIndex } from '../../src/core/search/search-index';
import { resolveSearchSettings } from '../../src/core/search/settings';
import { PostedNotes } from '../../src/obsidian/posted-notes';
import VaultQueryPlugin from '../../src/main';
import { ObsidianNoteSource } from '../../src/obsidian/source';
import { indexWorkers, type IndexWorker } from '../../src/obsidian/worker-host';
import { packPaths, type FromIndexWorker } from '../../src/obsidian/worker-protocol';
import { engineConfigOf } from '../../src/ui/plugin-settings';
import { waitFor } from '../helpers/wait';
import { rng } from '../../scripts/gen-vault.mjs';
import { asApp, FakeApp, postedBytesOf } from './fake-app';
import { EXAMPLE_VAULT, loadPlugin, startPlugin, unloadLoadedPlugins } from './harness';
import { NodeIndexWorker, useNodeIndexWorker } from './node-index-worker';

const OLD = Date.parse('2026-01-01T00:00:00Z');
const EXAMPLE_QUERIES = [
	'position sizing',
	'kelly',
	'risk',
	'backlinks:conventions',
	'copilot data',
	'rules',
	'tag:project',
];

let undo: (() => void) | null = null;

beforeEach(async () => {
	undo = await useNodeIndexWorker();
});

afterEach(() => {
	unloadLoadedPlugins();
	undo?.();
	vi.restoreAllMocks();
	document.body.empty();
});

/** A generated vault: `n` notes of seeded words, tags, aliases, links (some unresolved), a broken frontmatter, an excluded folder. */
function generatedVault(n: number, seed: number): Record<string, string> {
	const next = rng(seed);
	const words = [
		'zebra',
		'ledger',
		'quorum',
		'harbor',
		'kelly',
		'risk',
		'stripe',
		'orbit',
		'maple',
		'signal',
		'vector',
		'lantern',
	];
	const pick = (): string => words[Math.floor(next() * words.length)]!;
	const files: Record<string, string> = {};
	for (let i = 0; i < n; i++) {
		const folder = i % 7 === 0 ? 'templates' : `area${i % 5}`;
		const body = Array.from({ length: 20 + Math.floor(next() * 60) }, pick).join(' ');
		const link = `[[note ${Math.floor(next() * (n + 10))}]]`;
		const yaml =
			i % 13 === 0 ? '---\ntags: [unclosed\n---\n' : `---\ntags: [${pick()}]\naliases: [${pick()} ${i}]\n---\n`;
		files[`${folder}/note ${i}.md`] = `${yaml}# ${pick()} ${i}\n\n${body} ${link} #${pick()}\n`;
	}
	return files;
}

function vault(files: Record<string, string>, appId: string): FakeApp {
	const app = new FakeApp(files, { appId, mtimes: Object.fromEntries(Object.keys(files).map((p) => [p, OLD])) });
	app.indexAll();
	return app;
}

/** Loads and starts the plugin (the team-folders profile, as the example vault ships), its index built or restored and saved. */
function start(app: FakeApp): Promise<VaultQueryPlugin> {
	return startPlugin(app, { data: { profile: 'team-folders', excludedFolders: ['templates'] } });
}

async function answers(plugin: VaultQueryPlugin, queries: readonly string[]): Promise<Record<string, unknown>> {
	const out: Record<string, unknown> = {};
	for (const q of queries) {
		const r = await plugin.engine.search(q, { limit: 30 });
		out[q] = [r.status, r.limitations, r.results.map((h) => [h.path, h.score, h.backlinks])];
	}
	return out;
}

/** The same vault searched after a worker build and after a main-thread build (no worker bundle). */
async function bothBuilds(open: (appId: string) => FakeApp, queries: readonly string[]): Promise<[unknown, unknown]> {
	const worker = await start(open('worker-build'));
	expect(worker.engine.saved?.log).toContain('built in a worker (0 notes to reconcile)');
	const inWorker = await answers(worker, queries);
	const hits = Object.values(inWorker).map((a) => (a as unknown[][])[2]!.length);
	expect(hits.filter((n) => n > 0).length).toBeGreaterThan(queries.length / 2); // the searches find notes
	indexWorkers.code = null;
	vi.spyOn(console, 'warn').mockImplementation(() => undefined);
	const main = await start(open('main-build'));
	expect(main.engine.saved?.log).toContain('built on the main thread: no worker bundle in this build');
	return [inWorker, await answers(main, queries)];
}

/** Workers whose finished part is held back until `release`: the vault changes while the worker builds. */
function heldWorkers(): { done: () => boolean; release: () => void } {
	let held: { data: FromIndexWorker } | null = null;
	let released = false;
	let outer: IndexWorker | null = null;
	indexWorkers.create = (code) => {
		const inner = new NodeIndexWorker(code);
		const worker: IndexWorker = {
			onmessage: null,
			onerror: null,
			postMessage: (message, transfer) => inner.postMessage(message, transfer),
			terminate: () => inner.terminate(),
		};
		inner.onmessage = (event) => {
			if (event.data.type === 'done' && !released) held = event;
			else worker.onmessage?.(event);
		};
		inner.onerror = (event) => worker.onerror?.(event);
		outer = worker;
		return worker;
	};
	return {
		done: () => held !== null,
		release: () => {
			released = true;
			if (held !== null) outer?.onmessage?.(held);
		},
	};
}

describe('the search index built in the plugin’s worker', () => {
	it('answers every search on the example vault as a build on the main thread does', async () => {
		const open = (appId: string): FakeApp => {
			const app = FakeApp.fromFolder(EXAMPLE_VAULT, { appId });
			app.indexAll();
			return app;
		};
		const [inWorker, onMain] = await bothBuilds(open, EXAMPLE_QUERIES);
		expect(inWorker).toEqual(onMain);
	});

	it('answers every search on a generated vault as a build on the main thread does', async () => {
		const queries = [
			'zebra ledger',
			'kelly',
			'harbor orbit',
			'tag:maple',
			'backlinks:"note 3"',
			'signal vector lantern',
		];
		const files = generatedVault(400, 42);
		const [inWorker, onMain] = await bothBuilds((appId) => vault(files, appId), queries);
		expect(inWorker).toEqual(onMain);
	});

	it('runs no step of the index build on the main thread, and saves the part the worker encoded', async () => {
		const build = vi.spyOn(SearchIndex, 'build');
		const upserts = vi.spyOn(InvertedIndex.prototype, 'addCounted');
		const workers = NodeIndexWorker.started;
		const plugin = await start(vault(generatedVault(200, 7), 'no-main-steps'));
		expect(NodeIndexWorker.started).toBe(workers + 1);
		expect(build).toHaveBeenCalledTimes(0);
		expect(upserts).toHaveBeenCalledTimes(0);
		expect(plugin.engine.saved?.log).toEqual(['built in a worker (0 notes to reconcile)', 'saved (200 notes)']);
		expect((await plugin.engine.search('zebra')).results.length).toBeGreaterThan(0);
	});

	it('is restored after a restart from the part the worker saved, answering the same', async () => {
		const files = generatedVault(150, 3);
		const first = await start(vault(files, 'worker-restart'));
		const before = await answers(first, ['zebra', 'kelly risk', 'tag:orbit']);
		first.unload();
		const workers = NodeIndexWorker.started;
		const again = await start(vault(files, 'worker-restart'));
		expect(NodeIndexWorker.started).toBe(workers);
		expect(again.engine.saved?.log).toEqual([
			'search index loaded (0 notes re-indexed)',
			'restored (0 notes to reconcile)',
		]);
		expect(await answers(again, ['zebra', 'kelly risk', 'tag:orbit'])).toEqual(before);
	});

	it('takes in the edits, creations, deletions and renames made while the worker builds', async () => {
		const files = generatedVault(120, 11);
		const app = vault(files, 'edited-meanwhile');
		const held = heldWorkers();
		const plugin = await loadPlugin(app, { profile: 'team-folders', excludedFolders: ['templates'] });
		app.layoutReady();
		const built = plugin.engine.searchIndex();
		await waitFor(held.done, { what: 'the worker to finish its part' });
		app.modify('area1/note 1.md', '# Quokka\n\nA quokka grins at the zebra. [[note 2]]\n');
		app.create('area2/wombat.md', '---\ntags: [burrow]\n---\nThe wombat digs a burrow.\n');
		app.delete('area3/note 3.md');
		app.rename('area4/note 4.md', 'area4/renamed four.md');
		held.release();
		await built;
		await plugin.engine.settled();
		await plugin.engine.savesSettled();
		// changed since the stat the part was stamped with: the edit, the creation, the deletion, both paths of the rename
		expect(plugin.engine.saved?.log[0]).toBe('built in a worker (5 notes to reconcile)');
		const queries = ['quokka', 'wombat', 'tag:burrow', 'zebra', 'renamed four', 'kelly ledger'];
		const fresh = new VaultEngine(plugin.engine.source, engineConfigOf(plugin.settings));
		const mine: Record<string, unknown> = {};
		const theirs: Record<string, unknown> = {};
		for (const q of queries) {
			mine[q] = (await plugin.engine.search(q, { limit: 30 })).results.map((h) => [h.path, h.score]);
			theirs[q] = (await fresh.search(q, { limit: 30 })).results.map((h) => [h.path, h.score]);
		}
		expect(mine).toEqual(theirs);
		expect(mine['quokka']).toEqual([['area1/note 1.md', expect.any(Number)]]);
	});

	it('re-indexes a note changed while the worker builds once, not twice', async () => {
		const app = vault(generatedVault(120, 13), 'edited-once');
		const held = heldWorkers();
		const plugin = await loadPlugin(app, { profile: 'team-folders', excludedFolders: ['templates'] });
		app.layoutReady();
		const built = plugin.engine.searchIndex();
		await waitFor(held.done, { what: 'the worker to finish its part' });
		const upserts = vi.spyOn(InvertedIndex.prototype, 'addCounted');
		app.modify('area1/note 1.md', '# Quokka\n\nA quokka grins at the zebra.\n');
		app.create('area2/wombat.md', 'The wombat digs a burrow.\n');
		app.rename('area4/note 4.md', 'area4/renamed four.md');
		held.release();
		await built;
		await plugin.engine.settled();
		await plugin.engine.savesSettled();
		const indexed = upserts.mock.calls.map(([path]) => path).sort();
		expect(indexed).toEqual(['area1/note 1.md', 'area2/wombat.md', 'area4/renamed four.md']);
		expect((await plugin.engine.search('quokka')).results.map((h) => h.path)).toEqual(['area1/note 1.md']);
	});

	it('answers a search waiting on a build that a rebuild replaced while its worker ran', async () => {
		const app = vault(generatedVault(300, 5), 'rebuilt-meanwhile');
		const plugin = await loadPlugin(app, { profile: 'team-folders', excludedFolders: ['templates'] });
		const workers = NodeIndexWorker.started;
		app.layoutReady();
		const waiting = plugin.engine.search('zebra');
		await waitFor(() => NodeIndexWorker.started > workers, { what: 'the first worker to start' });
		const rebuilt = plugin.engine.rebuild();
		expect((await waiting).results.length).toBeGreaterThan(0);
		await rebuilt;
		await plugin.engine.settled();
		await plugin.engine.savesSettled();
		expect(plugin.engine.saved?.log.filter((l) => l.startsWith('built in a worker'))).toHaveLength(2);
		expect(NodeIndexWorker.started).toBe(workers + 2);
	});

	it('hands the worker just the metadata a build reads: no other key is read, none handed is unread, and of the sections only the first', async () => {
		const read = new Set<string>();
		const sectionReads = new Set<string>();
		const recorded = (meta: CachedMetadata | null): CachedMetadata | null =>
			meta &&
			new Proxy(meta, {
				get: (target, key) => {
					read.add(String(key));
					const value: unknown = Reflect.get(target, key);
					if (key !== 'sections' || !Array.isArray(value)) return value;
					return new Proxy(value as unknown[], {
						get: (list, at) => {
							sectionReads.add(String(at));
							return Reflect.get(list, at) as unknown;
						},
					});
				},
				ownKeys: (target) => {
					read.add('(every key)');
					return Reflect.ownKeys(target);
				},
			});
		const example = FakeApp.fromFolder(EXAMPLE_VAULT);
		for (const app of [example, vault(generatedVault(200, 9), 'metadata-keys')]) {
			app.indexAll();
			const source = new ObsidianNoteSource(asApp(app));
			const reading = Object.create(source) as ObsidianNoteSource;
			reading.getMetadata = (path) => recorded(source.getMetadata(path));
			for (const profile of [{}, { abstractHeadings: ['Summary'], metadataFields: ['description', 'status'] }])
				await SearchIndex.build(reading, profile, { sliceMs: Infinity });
		}
		const position = { start: { line: 0, col: 0, offset: 0 }, end: { line: 0, col: 0, offset: 0 } };
		const everyKey: Required<CachedMetadata> = {
			frontmatter: {},
			frontmatterPosition: position,
			frontmatterLinks: [],
			links: [],
			embeds: [],
			tags: [],
			headings: [],
			sections: [],
			listItems: [],
			blocks: {},
		};
		const handed = Object.keys(searchMetadataOf(everyKey) ?? {});
		expect([...read].filter((key) => !handed.includes(key) && key !== 'sections')).toEqual([]);
		// and nothing a build does not read crosses the threads (a build keeps no forward links)
		expect(handed.filter((key) => !read.has(key))).toEqual([]);
		expect(handed).not.toContain('links');
		expect([...sectionReads]).toEqual(['0']);
	});

	it('holds no note’s metadata once its build has read it, and asks the main thread for each note once', async () => {
		const app = vault(generatedVault(300, 17), 'read-once');
		const source = new ObsidianNoteSource(asApp(app));
		const settings = resolveSearchSettings({});
		const paths = [...source.listNotes()];
		const asked: string[] = [];
		const posted = new PostedNotes(
			{
				settings,
				vault: { vaultPath: '', configDir: source.configDir, userIgnoreFilters: [] },
				notes: packPaths(paths),
			},
			(ask) => {
				asked.push(...ask);
				// The main thread's answer, as worker-host.ts posts it (later, not within the ask).
				const notes = ask.map((path) => ({
					path,
					bytes: postedBytesOf(app.vault.textOf(path)),
					error: null,
					metadata: searchMetadataOf(source.getMetadata(path)),
					skipReason: null,
					frontmatterError: null,
				}));
				void Promise.resolve().then(() => posted.receive(notes));
			},
		);
		const index = await SearchIndex.build(posted, settings, { sliceMs: Infinity, readBatch: 64 });
		expect([...asked].sort()).toEqual([...paths].sort());
		expect(paths.filter((path) => posted.getMetadata(path) !== null)).toEqual([]);
		// The build had each note's metadata when it indexed it: it answers as a build over the vault does.
		const direct = await SearchIndex.build(source, settings, { sliceMs: Infinity });
		for (const q of ['tag:maple', 'aliases:kelly', 'harbor orbit']) {
			const hits = async (si: SearchIndex): Promise<unknown> =>
				(await search(si, q, { limit: 1000, source: null })).results.map((h) => [h.path, h.score]);
			expect(await hits(index)).toEqual(await hits(direct));
		}
		expect((await search(index, 'tag:maple', { source: null })).results.length).toBeGreaterThan(0);
	});

	it('reads the notes’ bytes on the main thread, not their text, and the worker decodes them as Obsidian reads a note', async () => {
		const app = vault(generatedVault(120, 23), 'bytes-only');
		const texts = vi.spyOn(app.vault, 'cachedRead');
		const bytes = vi.spyOn(app.vault, 'readBinary');
		const plugin = await start(app);
		expect(plugin.engine.saved?.log).toEqual(['built in a worker (0 notes to reconcile)', 'saved (120 notes)']);
		const read = bytes.mock.calls.map(([file]) => file.path);
		expect(read.length).toBeGreaterThan(60); // the notes the index reads (the generated vault also has notes out of scope)
		expect(new Set(read).size).toBe(read.length);
		// The only texts read are the few whose YAML block Obsidian did not parse (is it blank? source.ts), not the build's.
		const unparsedYaml = (path: string): boolean => {
			const cache = app.metadataCache.getCache(path);
			return cache?.sections?.[0]?.type === 'yaml' && cache.frontmatter === undefined;
		};
		expect(texts.mock.calls.map(([file]) => file.path).filter((path) => !unparsedYaml(path))).toEqual([]);
		// A leading BOM is dropped, other scripts kept, and a malformed byte read as U+FFFD, as `cachedRead` gives them.
		const posted = new PostedNotes(
			{
				settings: resolveSearchSettings({}),
				vault: { vaultPath: '', configDir: '.obsidian', userIgnoreFilters: [] },
				notes: packPaths(['a.md']),
			},
			() => undefined,
		);
		const encoded = new TextEncoder().encode('\uFEFF# Café 東京\n');
		const raw = new Uint8Array([...encoded, 0xff, 0x41]);
		posted.receive([
			{ path: 'a.md', bytes: raw, error: null, metadata: null, skipReason: null, frontmatterError: null },
		]);
		expect(await posted.read('a.md')).toBe('# Café 東京\n\uFFFDA');
	});

	it('builds on the main thread, with one console line, where no worker starts or it fails', async () => {
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
		indexWorkers.create = () => {
			throw new Error('refused by the page’s policy');
		};
		const refused = await start(vault(generatedVault(50, 1), 'refused'));
		expect(refused.engine.saved?.log[0]).toBe(
			'built on the main thread: the worker did not start (refused by the page’s policy)',
		);
		expect(refused.engine.saved?.log.at(-1)).toBe('saved (50 notes)');
		expect(warn).toHaveBeenCalledTimes(1);
		expect(String(warn.mock.calls[0]?.[0])).toMatch(/^Vault Query: building the search index on the main thread/);

		indexWorkers.code = 'throw new Error("broken worker")';
		indexWorkers.create = (code) => new NodeIndexWorker(code);
		const broken = await start(vault(generatedVault(50, 1), 'broken'));
		expect(broken.engine.saved?.log[0]).toMatch(/^built on the main thread: the worker failed: .*broken worker/);
		expect((await broken.engine.search('zebra')).results).toEqual((await refused.engine.search('zebra')).results);
	});
});
