import { Component, debounce, Notice, type App, type TAbstractFile } from 'obsidian';
import {
	VaultEngine,
	type EngineConfig,
	type EngineSearchOptions,
	type EngineStatus,
	type NoteAnswer,
	type NoteRequest,
} from '../core/engine/engine';
import { failedContextPack, type ContextPack, type PackRequest } from '../core/pack/pack';
import { failed } from '../core/query/envelope';
import type { StructuredResult } from '../core/query/run';
import type { StructuredQuery } from '../core/query/types';
import { failedReport, type ReaderReport, type ReaderRequest } from '../core/reader/index';
import { failedSearch } from '../core/search/failed';
import { TimeSlice } from '../core/steps';
import type { SearchIndex, SearchResult } from '../core/search/search';
import { INDEX_BUILDING, IndexLifecycle, STILL_INDEXING, type IndexState } from './index-lifecycle';
import { ObsidianNoteSource } from './source';

/** Notes whose reads the plugin's search-index build has in flight at once (it yields inside and between notes on its time budget). */
const PLUGIN_READ_BATCH = 8; // why: enough to overlap cachedRead calls; few texts held while a slice waits.
/** Milliseconds of the search-index build between two yields to Obsidian's main thread. */
const PLUGIN_SLICE_MS = 8; // why: under a 16 ms frame with room for a garbage collection step (up to ~25 ms at 50k notes), so Obsidian keeps painting during a build.

/** Milliseconds the settings must stay unchanged before a change that shapes the search index rebuilds it. */
const SETTINGS_SETTLE_MS = 1500; // why: a settings row saves on every key; one build after the typing stops, not one per key.

/** Notes from which the first search-index build shows a progress notice (~1 s of slices on a phone). */
const LARGE_VAULT_NOTES = 2000;

/** An answer given while Obsidian is still indexing: partial, saying so. */
function stillIndexing<T extends { status: string; limitations: string[] }>(answer: T): T {
	if (answer.status === 'failed') return answer;
	return { ...answer, status: 'partial', limitations: [...answer.limitations, STILL_INDEXING] };
}

/**
 * The {@link VaultEngine} inside Obsidian: the engine over an {@link ObsidianNoteSource}, kept
 * current from vault and metadata events, with Obsidian's readiness gating every operation.
 *
 * - `loading` (before layout-ready): every operation answers `failed` with {@link INDEX_BUILDING}.
 * - `indexing`: structural queries and reads run and say they may be incomplete (`partial`).
 * - The ranked-search index is built once the vault is `ready`, in ~12 ms slices, with a
 *   progress notice on large vaults; search and pack wait for it. Edits, deletions and renames
 *   go to the engine's `upsert`/`remove`/`rename`, which apply them in order (queued while it
 *   builds), so the live index always equals a rebuild.
 */
export class PluginEngine extends Component {
	/** The port over this vault. */
	readonly source: ObsidianNoteSource;
	/** Obsidian's readiness and the source's path-list cache. */
	readonly lifecycle: IndexLifecycle;
	/** The engine every face calls through this object. */
	readonly engine: VaultEngine;
	private active = false;
	/** Builds the search index again once the settings that shape it have stopped changing. */
	private readonly rebuildSoon = debounce(() => void this.buildIfStarted(), SETTINGS_SETTLE_MS, true);

	/** `config` is read now and again on {@link applySettings}. */
	constructor(
		private readonly app: App,
		private readonly config: () => EngineConfig,
	) {
		super();
		this.source = new ObsidianNoteSource(app);
		this.lifecycle = new IndexLifecycle(app, this.source);
		this.engine = new VaultEngine(this.source, config());
	}

	/** Light: the readiness child, then listeners and the build once the layout is ready. */
	override onload(): void {
		this.active = true;
		// The lifecycle listens first, so the source's lists are current when the engine reads them.
		this.addChild(this.lifecycle);
		this.app.workspace.onLayoutReady(() => this.start());
	}

	/** Listeners go with `registerEvent`; the search index is dropped. */
	override onunload(): void {
		this.active = false;
		this.rebuildSoon.cancel();
		this.engine.dropSearchIndex();
	}

	/** `loading`, `indexing` or `ready`. */
	get state(): IndexState {
		return this.lifecycle.state;
	}

	/** Resolves once Obsidian has indexed the vault. */
	whenReady(): Promise<void> {
		return this.lifecycle.whenReady();
	}

	/**
	 * Apply the settings `config` gives now (on each save and on a synced change). A change that
	 * shapes the search index drops it, and it is built again once the settings have stopped
	 * changing; returns whether the index was dropped.
	 */
	applySettings(): boolean {
		const dropped = this.engine.configure(this.config());
		if (dropped && this.active) this.rebuildSoon();
		return dropped;
	}

	/** Drop the search index and build it again now (a rebuild the settings still wait for is not needed); resolves when built. */
	rebuild(): Promise<SearchIndex> {
		this.rebuildSoon.cancel();
		this.engine.dropSearchIndex();
		return this.searchIndex();
	}

	/** Whether the ranked-search index is built (else the first search waits for it). */
	get searchReady(): boolean {
		return this.engine.searchReady;
	}

	/** A structural query, gated on readiness. */
	async query(query: StructuredQuery): Promise<StructuredResult> {
		if (this.state === 'loading') return failed({ ...query }, INDEX_BUILDING);
		const indexing = this.state === 'indexing';
		const result = await this.engine.query(query);
		return indexing ? stillIndexing(result) : result;
	}

	/** A schema-strict read, gated on readiness. */
	async read(request: ReaderRequest): Promise<ReaderReport> {
		if (this.state === 'loading')
			return failedReport(request, this.engine.settings.reader, this.source.vaultPath, INDEX_BUILDING);
		const indexing = this.state === 'indexing';
		const report = await this.engine.read(request);
		return indexing ? stillIndexing(report) : report;
	}

	/** A ranked search; `failed` before layout-ready, else waits for the search index. */
	async search(text: string, options: EngineSearchOptions = {}): Promise<SearchResult> {
		if (this.state === 'loading') return failedSearch(text.trim(), INDEX_BUILDING);
		await this.searchIndex();
		return this.engine.search(text, options);
	}

	/** A context pack; `failed` before layout-ready, else waits for the search index. */
	async pack(request: PackRequest): Promise<ContextPack> {
		if (this.state === 'loading') return failedContextPack(request, this.source.vaultPath, INDEX_BUILDING);
		await this.searchIndex();
		return this.engine.pack(request);
	}

	/** A note or section, verbatim with its lines; `failed` before layout-ready. */
	async note(request: NoteRequest): Promise<NoteAnswer> {
		if (this.state === 'loading') return failed({ ...request }, INDEX_BUILDING);
		return this.engine.note(request);
	}

	/** A schema note drafted from the vault's frontmatter, once every note is indexed. */
	async schemaDraft(): Promise<string> {
		await this.whenReady();
		return this.engine.schemaDraft();
	}

	/** What the engine indexes and leaves out. */
	status(): EngineStatus & { state: IndexState } {
		return { ...this.engine.status(), state: this.state };
	}

	/** The search index once the vault is ready (built on first use, with a notice on large vaults). */
	async searchIndex(): Promise<SearchIndex> {
		await this.whenReady();
		if (this.engine.searchState !== 'not built') return this.engine.searchIndex();
		// The build lists the vault first; ordering 50k paths is too long for one block, so it is done here in slices.
		await this.source.prepareNotes(new TimeSlice(PLUGIN_SLICE_MS, this.source.turns.next, Date.now));
		const progress = this.progressNotice();
		try {
			return await this.engine.searchIndex({
				onProgress: progress?.update,
				readBatch: PLUGIN_READ_BATCH,
				sliceMs: PLUGIN_SLICE_MS,
				yieldFn: this.source.turns.next,
			});
		} finally {
			progress?.notice.hide();
		}
	}

	/** For a large vault the first build takes seconds: a notice shows how far it got. */
	private progressNotice(): { notice: Notice; update: (done: number, total: number) => void } | null {
		const total = this.source.listNotes().length;
		if (total < LARGE_VAULT_NOTES) return null;
		const notice = new Notice(`Indexing ${total} notes for search…`, 0);
		return {
			notice,
			update: (done, all) => notice.setMessage(`Indexing notes for search… ${Math.floor((done * 100) / all)}%`),
		};
	}

	/** The build a settings change asked for, unless the plugin is unloaded or the layout is not ready (then the start builds). */
	private async buildIfStarted(): Promise<void> {
		if (this.active && this.state !== 'loading') await this.searchIndex();
	}

	private start(): void {
		if (!this.active) return;
		const { vault, metadataCache } = this.app;
		this.registerEvent(metadataCache.on('changed', (file, data) => void this.engine.upsert(file.path, data)));
		this.registerEvent(metadataCache.on('deleted', (file) => void this.engine.remove(file.path)));
		// A new attachment changes where links resolve; a new note is read again on `changed`.
		this.registerEvent(vault.on('create', (file: TAbstractFile) => void this.engine.upsert(file.path)));
		this.registerEvent(vault.on('delete', (file: TAbstractFile) => void this.engine.remove(file.path)));
		this.registerEvent(
			vault.on('rename', (file: TAbstractFile, oldPath: string) => void this.engine.rename(oldPath, file.path)),
		);
		void this.searchIndex();
	}
}
