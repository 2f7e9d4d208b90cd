import { debounce, Notice, Plugin } from 'obsidian';
import { buildPack, failedContextPack, type ContextPack, type PackRequest } from './core/pack/pack';
import type { StructuredResult } from './core/query/run';
import type { StructuredQuery } from './core/query/types';
import { DEFAULT_READER_SETTINGS, type ReaderReport, type ReaderRequest, type ReaderSettings } from './core/reader/index';
import { search, type SearchIndex, type SearchResult } from './core/search/search';
import { INDEX_BUILDING, IndexLifecycle, type IndexState } from './obsidian/index-lifecycle';
import { SearchIndexLifecycle } from './obsidian/search-index-lifecycle';
import { ObsidianNoteSource } from './obsidian/source';
import { copyPack, runCopyPackCommand, type CopyPackContext } from './ui/copy-pack';
import { FilterModal } from './ui/filter-modal';
import type { FaceSearchOptions, FacesHost } from './ui/host';
import { mergeSettings, searchSettingsOf, type PluginSettings } from './ui/plugin-settings';
import { QUERY_COMMANDS, type QueryCommandSpec } from './ui/query-commands';
import { QueryPromptModal } from './ui/query-prompt';
import { ResultsModal } from './ui/results-modal';
import { SearchModal } from './ui/search-modal';
import { openSidePanel, SIDE_PANEL_VIEW, SidePanelView } from './ui/side-panel';
import type { SettingsHost } from './ui/settings-rows';
import { VaultQuerySettingTab } from './ui/settings-tab';
import { blockProcessor, CODE_BLOCK_LANGUAGE } from './ui/code-block';
import { failedSearch } from './ui/failed-search';

/**
 * The plugin's public API, for other plugins and scripts:
 * `app.plugins.plugins['vault-query'].api.query({ type: 'tag', tag: 'project' })`.
 * Answers are plain JSON, exactly what `vault-query <command> --json` prints.
 */
export interface VaultQueryApi {
	/** Runs a structural query. Before Obsidian's layout is ready it answers `failed` ("index is still building"). */
	query(query: StructuredQuery): Promise<StructuredResult>;
	/** Schema-strict lookup by slug (seed 001); the same report as `vault-query lookup --json`. */
	lookup(slug: string, options?: ReaderOptions): Promise<ReaderReport>;
	/** Schema-strict filter: `where` as a map (`{status: 'open', rating: '>=7'}`) or clauses (`['rating>=7']`). */
	filter(where: ReaderRequest['where'], options?: ReaderOptions): Promise<ReaderReport>;
	/** 1-hop link graph of a note, inbound and outbound. */
	graph(slug: string, options?: ReaderOptions): Promise<ReaderReport>;
	/** Substring (or `regex: true`) search in note bodies, grouped by file. */
	textSearch(pattern: string, options?: ReaderOptions): Promise<ReaderReport>;
	/** Ranked search (seed 003): the same object as `vault-query search "<query>" --json`; `failed` before layout-ready. */
	search(query: string, options?: ApiSearchOptions): Promise<SearchResult>;
	/** A context pack (seed 004): the same object as `vault-query pack --json`; budget defaults to the `packBudget` setting. */
	pack(request: PackRequest): Promise<ContextPack>;
	/** Resolves once the index is ready (Obsidian has loaded and indexed the vault). */
	whenReady(): Promise<void>;
	/** `loading`, `indexing` or `ready` (see src/obsidian/index-lifecycle.ts). */
	state(): IndexState;
}

/** The seed's optional reader parameters (folders, max_results, min_confidence, …) for the API. */
export type ReaderOptions = Omit<ReaderRequest, 'operation' | 'slug' | 'where' | 'pattern'>;

/** Options of `api.search`: those of `vault-query search`. */
export interface ApiSearchOptions {
	/** At most this many hits (default: the "Ranked results" setting, 10). */
	limit?: number;
}

export type { PluginSettings } from './ui/plugin-settings';

/** Vault Query inside Obsidian: structural queries over MetadataCache, as commands and as an API. */
export default class VaultQueryPlugin extends Plugin {
	/** The settings: the defaults merged with `data.json`, edited in the settings tab. */
	override settings: PluginSettings = mergeSettings(null);
	/** The engine's port over this vault (reads nothing until asked). */
	readonly source = new ObsidianNoteSource(this.app);
	/** Readiness and event wiring; a child component from `onload` on. */
	readonly index = new IndexLifecycle(this.app, this.source);
	/** The ranked-search index (search, packs), built after the vault is ready and kept current; replaced by a rebuild. */
	searchIndex: SearchIndexLifecycle = this.newSearchIndex();
	/** The built ranked-search index and how long its build took, for the settings tab's status. */
	private built: { index: SearchIndex; ms: number } | null = null;

	/** The public API (see {@link VaultQueryApi}). */
	readonly api: VaultQueryApi = {
		query: (query) => this.queryJson(query),
		lookup: (slug, options) => this.readJson({ ...options, operation: 'lookup', slug }),
		filter: (where, options) => this.readJson({ ...options, operation: 'filter', where }),
		graph: (slug, options) => this.readJson({ ...options, operation: 'graph', slug }),
		textSearch: (pattern, options) => this.readJson({ ...options, operation: 'text-search', pattern }),
		search: (query, options) => this.searchJson(query, options ?? {}),
		pack: (request) => this.packJson(request),
		whenReady: () => this.index.whenReady(),
		state: () => this.index.state,
	};

	/** What the faces (modal, side panel, code blocks) may call: a narrow port, not the plugin. */
	readonly faces: FacesHost = {
		app: this.app,
		source: this.source,
		query: (query) => this.index.query(query, this.settings),
		search: (text, options) => this.searchCore(text, options ?? {}),
		pack: (request) => this.packJson(request),
		searchIndexReady: () => this.searchIndex.isBuilt,
		whenReady: () => this.index.whenReady(),
		budget: () => this.settings.packBudget,
		searchLimit: () => this.settings.searchLimit,
		linksKey: () => this.settings.linksKey,
	};

	/** Rebuilds the search index once the settings that shape it have stopped changing. */
	private readonly rebuildSoon = debounce(() => void this.rebuildSearchIndex(), 1500, true);

	/** What the settings tab may read and do. */
	private readonly settingsHost: SettingsHost = {
		settings: () => this.settings,
		save: (searchChanged) => {
			void this.saveSettings();
			if (searchChanged) this.rebuildSoon();
		},
		rebuild: () => {
			this.rebuildSoon.cancel();
			return this.rebuildSearchIndex();
		},
		status: () => ({ state: this.index.state, notes: this.source.listNotes().length, searchNotes: this.built?.index.size ?? null, buildMs: this.built?.ms ?? null }),
	};

	/** Light: the lifecycle children, settings and the commands. Indexing waits for layout-ready. */
	override async onload(): Promise<void> {
		this.addChild(this.index);
		await this.loadSettings();
		void this.startSearchIndex();
		for (const spec of QUERY_COMMANDS) {
			this.addCommand({ id: spec.id, name: spec.name, callback: () => this.openPrompt(spec) });
		}
		this.addCommand({ id: 'filter-by-properties', name: 'Filter notes by properties', callback: () => this.openFilter() });
		this.addCommand({ id: 'copy-context-pack', name: 'Copy context pack', callback: () => runCopyPackCommand(this.packContext()) });
		this.addCommand({ id: 'search-vault', name: 'Search vault', callback: () => this.openSearch() });
		this.registerView(SIDE_PANEL_VIEW, (leaf) => new SidePanelView(leaf, this.faces));
		this.addRibbonIcon('list-tree', 'Open note context', () => void openSidePanel(this.app));
		this.addCommand({ id: 'open-note-context', name: 'Open note context panel', callback: () => void openSidePanel(this.app) });
		this.addSettingTab(new VaultQuerySettingTab(this.app, this, this.settingsHost));
		this.registerMarkdownCodeBlockProcessor(CODE_BLOCK_LANGUAGE, blockProcessor(this.faces));
	}

	/** Drops a rebuild still waiting for the settings to settle (children and listeners unload themselves). */
	override onunload(): void {
		this.rebuildSoon.cancel();
	}

	/** Reads `data.json` over the defaults. */
	async loadSettings(): Promise<void> {
		this.settings = mergeSettings(await this.loadData());
	}

	/** Writes the settings to `data.json`. */
	async saveSettings(): Promise<void> {
		await this.saveData(this.settings);
	}

	/** Runs a query and returns a JSON copy, so callers can never mutate Obsidian's cached frontmatter. */
	private async queryJson(query: StructuredQuery): Promise<StructuredResult> {
		const result = await this.index.query(query, this.settings);
		return JSON.parse(JSON.stringify(result)) as StructuredResult;
	}

	/** The reader's settings: its seed defaults, this vault's schema path and folders, the engine settings. */
	readerSettings(): ReaderSettings {
		return { ...DEFAULT_READER_SETTINGS, engine: this.settings, schemaPath: this.settings.schemaPath, defaultFolders: this.settings.readerFolders };
	}

	/** Runs a reader operation and returns a JSON copy (same reason as {@link queryJson}). */
	private async readJson(request: ReaderRequest): Promise<ReaderReport> {
		const report = await this.index.read(request, this.readerSettings());
		return JSON.parse(JSON.stringify(report)) as ReaderReport;
	}

	/** Ranked search over the current index; `failed` before layout-ready (the build waits for it). */
	private async searchCore(text: string, options: FaceSearchOptions): Promise<SearchResult> {
		if (this.index.state === 'loading') return failedSearch(text.trim(), INDEX_BUILDING);
		const index = await this.searchIndex.get();
		return search(index, text, { limit: options.limit, prefixLast: options.prefixLast, withBacklinks: options.withBacklinks ?? false });
	}

	/** `api.search`: exactly `vault-query search --json` (backlinks filled in), as a JSON copy. */
	private async searchJson(text: string, options: ApiSearchOptions): Promise<SearchResult> {
		const result = await this.searchCore(text, { limit: options.limit ?? this.settings.searchLimit, withBacklinks: true });
		return JSON.parse(JSON.stringify(result)) as SearchResult;
	}

	/** A search index lifecycle over the current settings (not yet a child). */
	private newSearchIndex(): SearchIndexLifecycle {
		return new SearchIndexLifecycle(this.app, this.source, this.index, () => searchSettingsOf(this.settings));
	}

	/** Adds the search index child; resolves when it is built (the build waits for the vault), timing it. */
	private startSearchIndex(): Promise<void> {
		const lifecycle = this.addChild(this.searchIndex);
		this.built = null;
		return this.index.whenReady().then(async () => {
			const started = Date.now();
			const index = await lifecycle.get();
			if (this.searchIndex === lifecycle) this.built = { index, ms: Date.now() - started };
		});
	}

	/** Drops the ranked-search index and builds a new one from the current settings; resolves when built. */
	rebuildSearchIndex(): Promise<void> {
		this.removeChild(this.searchIndex);
		this.searchIndex = this.newSearchIndex();
		return this.startSearchIndex();
	}

	/** Builds a context pack (budget and draft/archived choices from the settings unless given) and returns a JSON copy; `failed` before layout-ready. */
	private async packJson(request: PackRequest): Promise<ContextPack> {
		const full: PackRequest = {
			...request,
			budget: request.budget ?? this.settings.packBudget,
			includeDrafts: request.includeDrafts ?? (this.settings.packIncludeDrafts || undefined),
			includeArchived: request.includeArchived ?? (this.settings.packIncludeArchived || undefined),
		};
		if (this.index.state === 'loading') return failedContextPack(full, this.source.vaultPath, INDEX_BUILDING);
		const pack = await buildPack(this.source, await this.searchIndex.get(), full);
		return JSON.parse(JSON.stringify(pack)) as ContextPack;
	}

	private packContext(): CopyPackContext {
		return { app: this.app, budget: () => this.settings.packBudget, pack: (request) => this.packJson(request), indexReady: () => this.searchIndex.isBuilt };
	}

	private openSearch(): void {
		const selection = this.app.workspace.activeEditor?.editor?.getSelection().trim() ?? '';
		const initial = selection.includes('\n') ? '' : selection;
		new SearchModal(this.app, this.faces, { copyPack: (query) => void copyPack(this.packContext(), query) }, initial).open();
	}

	private openFilter(): void {
		const remember = (text: string): void => {
			this.settings.lastFilter = text;
			void this.saveSettings();
		};
		new FilterModal(this.app, (request) => this.index.read(request, this.readerSettings()), this.settings.lastFilter, remember).open();
	}

	private openPrompt(spec: QueryCommandSpec): void {
		const ctx = { source: this.source, activePath: this.app.workspace.getActiveFile()?.path ?? null };
		new QueryPromptModal(this.app, spec, ctx, (query) => void this.showResults(spec, query)).open();
	}

	private async showResults(spec: QueryCommandSpec, query: StructuredQuery): Promise<void> {
		try {
			const result = await this.index.query(query, this.settings);
			new ResultsModal(this.app, spec.title(query), result).open();
		} catch (error) {
			console.error('Vault Query: query failed', error);
			new Notice(`The query failed: ${error instanceof Error ? error.message : String(error)}`);
		}
	}
}
