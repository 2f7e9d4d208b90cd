// clock-ok-file: the Chromium bench's page measures and reports; it asserts nothing.
/**
 * The Chromium bench's page (test/e2e/bench/run.ts serves and opens it): the real plugin on the
 * fake app, over a vault whose note list and metadata come from the server as JSON (what
 * Obsidian's MetadataCache holds) and whose notes are fetched from the server one by one at each
 * `readBinary`/`cachedRead` (as Obsidian reads from disk) — the page never holds every note's text.
 *
 * `?load=first` (an empty profile): layout-ready, the index built in the Web Worker (the bundle
 * inlined as into main.js), then saved to IndexedDB. `?load=restart` (Chromium started again over
 * the same profile; the server serves the notes changed meanwhile): layout-ready, the saved index
 * restored, the first ranked search, the changed notes reconciled, the re-save (forced when the
 * plugin did not ask for one), then searches once all is settled. Each load posts its marks'
 * phases (bench-monitor.ts) and what the plugin logged to `/bench/result`.
 */
import type { App } from 'obsidian';
import manifest from '../../../manifest.json';
import type { CachedMetadata } from '../../../src/core/metadata';
import { SearchIndex } from '../../../src/core/search/search-index';
import VaultQueryPlugin from '../../../src/main';
import type { VaultChanges, VaultMeta } from '../bench/vault-meta';
import { UiApp } from '../../ui/ui-app';
import { benchCollection, between, mark, nextBeat, phases } from './bench-monitor';
import { readEveryNote } from './bench-floor';
import { fileBytes } from './bench-reads';

const LOAD = new URLSearchParams(location.search).get('load') ?? 'first';
/** The Node restart bench's searches: the first, then more once all is settled. */
const QUERY = 'the project notes';
const SETTLED_QUERIES = ['notes', 'obsidian plugin template', 'how to write a daily review', 'kanban'];

/** Builds of the ranked-search index on the page's main thread (none: the worker builds, a restart restores). */
let builds = 0;
const build = SearchIndex.build.bind(SearchIndex);
SearchIndex.build = (...args: Parameters<typeof SearchIndex.build>): ReturnType<typeof SearchIndex.build> => {
	builds++;
	return build(...args);
};

const errors: string[] = [];
window.addEventListener('error', (e) => errors.push(String(e.message)));
window.addEventListener('unhandledrejection', (e) => errors.push(String(e.reason)));

function settle(): Promise<void> {
	return new Promise((resolve) => window.setTimeout(resolve, 0));
}

async function json<T>(url: string): Promise<T> {
	// The bench's server, not a network request of the plugin's (requestUrl is Obsidian's, not the page's).
	const response = await window.fetch(`${url}?load=${LOAD}`);
	if (!response.ok) throw new Error(`${url}: ${response.status}`);
	return (await response.json()) as T;
}

/** The fake app over the served vault: every file listed with its stat, the metadata cache filled, reads fetched. */
async function openVault(): Promise<{ app: UiApp; notes: number; markdownBytes: number }> {
	const meta = await json<VaultMeta>('/vault/meta.json');
	const changes = await json<VaultChanges>('/vault/changes.json');
	const app = new UiApp({}, { appId: 'chromium-bench', name: meta.name, userIgnoreFilters: meta.userIgnoreFilters });
	for (const [path, text] of Object.entries(meta.configFiles)) app.vault.adapter.files.set(path, text);
	let notes = 0;
	let markdownBytes = 0;
	for (const [path, mtime0, size0] of meta.files) {
		const [mtime, size] = changes.stats[path] ?? [mtime0, size0];
		app.vault.add(path, '', mtime).stat = { ctime: mtime0, mtime, size };
		if (path.endsWith('.md')) {
			notes++;
			markdownBytes += size;
		}
	}
	const metadata: Record<string, CachedMetadata> = { ...meta.metadata, ...changes.metadata };
	app.metadataCache.restore(metadata, meta);
	const decoder = new TextDecoder(); // drops a leading BOM, as Obsidian's text reads do
	app.vault.readBinary = (file) => fileBytes(file.path);
	app.vault.cachedRead = async (file) => decoder.decode(await fileBytes(file.path));
	return { app, notes, markdownBytes };
}

/** The plugin loaded over `app` (its default settings), before layout-ready. */
async function loadPlugin(app: UiApp): Promise<VaultQueryPlugin> {
	const plugin = new VaultQueryPlugin(app as unknown as App, manifest);
	plugin.load();
	await settle();
	benchCollection();
	await nextBeat();
	return plugin;
}

/** The first start: layout-ready → the index built in the worker → saved → its records loaded. */
async function firstStart(app: UiApp, plugin: VaultQueryPlugin): Promise<Record<string, unknown>> {
	mark('layout_ready');
	app.layoutReady();
	await plugin.engine.searchIndex();
	mark('built');
	await plugin.engine.savesSettled();
	mark('saved');
	// Where the worker saved the part, the index was restored from IndexedDB as at a restart: its postings' records come in the background.
	await plugin.engine.saved?.restLoaded();
	await settle();
	mark('records_loaded');
	const answer = await plugin.engine.search(QUERY, { limit: 10 });
	return {
		first_build_ms: between('layout_ready', 'built'),
		save_ms: between('built', 'saved'),
		answer: answer.results.map((hit) => hit.path),
	};
}

/** The floor: layout-ready → every note read (bench-floor.ts), no plugin loaded. */
async function floor(app: UiApp): Promise<Record<string, unknown>> {
	await settle();
	benchCollection();
	await nextBeat();
	mark('layout_ready');
	app.layoutReady();
	const bytes = await readEveryNote(app);
	mark('read');
	return { read_ms: between('layout_ready', 'read'), bytes_read: bytes };
}

/** The restart: layout-ready → restored → first search → reconciled → re-saved → settled searches. */
async function restart(app: UiApp, plugin: VaultQueryPlugin): Promise<Record<string, unknown>> {
	mark('layout_ready');
	app.layoutReady();
	await plugin.engine.searchIndex();
	await settle();
	mark('restored');
	const answer = await plugin.engine.search(QUERY, { limit: 10 });
	mark('first_search');
	await settle();
	await plugin.engine.settled();
	mark('reconciled');
	const saves = (): number => plugin.engine.saved?.log.filter((l) => l.startsWith('saved (')).length ?? 0;
	const before = saves();
	await plugin.engine.savesSettled();
	// Fewer changes than a re-save waits for (1 in 50 notes): made anyway, to measure the one that comes later.
	const forced = saves() === before;
	if (forced) await plugin.engine.saveNow();
	await settle();
	mark('resaved');
	// The bench's own full collection (the re-save's garbage not left to the searches), in a task of its own: a phase apart.
	await settle();
	benchCollection();
	await nextBeat();
	mark('heap_settled');
	await plugin.engine.source.linkSourcesInverted();
	await settle();
	mark('settled');
	for (const query of [QUERY, ...SETTLED_QUERIES]) await plugin.engine.search(query, { limit: 10 });
	await settle();
	mark('settled_searches');
	return {
		restart_ready_ms: between('layout_ready', 'first_search'),
		reconcile_done_ms: between('layout_ready', 'reconciled'),
		resave_ms: between('reconciled', 'resaved'),
		resave_forced: forced,
		restart_status: answer.status,
		answer: answer.results.map((hit) => hit.path),
	};
}

/** A plugin load's figures: the first start's or the restart's, with what the plugin saved and logged. */
async function pluginLoad(app: UiApp): Promise<Record<string, unknown>> {
	const plugin = await loadPlugin(app);
	const measured = LOAD === 'restart' ? await restart(app, plugin) : await firstStart(app, plugin);
	const storage = await navigator.storage.estimate();
	const figures = {
		...measured,
		saved_bytes: (await plugin.engine.savedSummary())?.bytes ?? null,
		storage_usage_bytes: storage.usage ?? null,
		storage_quota_bytes: storage.quota ?? null,
		main_thread_builds: builds,
		log: [...(plugin.engine.saved?.log ?? [])],
		visibility: document.visibilityState,
		gc_exposed: typeof (globalThis as { gc?: unknown }).gc === 'function',
	};
	plugin.unload();
	return figures;
}

async function run(): Promise<void> {
	let figures: Record<string, unknown>;
	try {
		mark('page_start');
		const { app, notes, markdownBytes } = await openVault();
		const measured = LOAD === 'floor' ? await floor(app) : await pluginLoad(app);
		figures = {
			load: LOAD,
			notes,
			markdown_bytes: markdownBytes,
			...measured,
			phases: await phases('layout_ready'),
			errors,
		};
	} catch (error) {
		figures = { load: LOAD, errors: [...errors, String(error instanceof Error ? error.stack : error)] };
	}
	// The figures, to the bench's server (requestUrl is Obsidian's, not the page's).
	await window.fetch(`/bench/result?load=${LOAD}`, { method: 'POST', body: JSON.stringify(figures) });
}

void run();
