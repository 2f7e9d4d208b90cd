import { Notice, Plugin } from 'obsidian';
import { DEFAULT_BUDGET, buildPack, failedContextPack, type ContextPack, type PackRequest } from './core/pack/pack';
import type { StructuredResult } from './core/query/run';
import type { StructuredQuery } from './core/query/types';
import { DEFAULT_READER_SETTINGS, type ReaderReport, type ReaderRequest, type ReaderSettings } from './core/reader/index';
import { DEFAULT_SETTINGS, type EngineSettings } from './core/settings';
import { INDEX_BUILDING, IndexLifecycle, type IndexState } from './obsidian/index-lifecycle';
import { SearchIndexLifecycle } from './obsidian/search-index-lifecycle';
import { ObsidianNoteSource } from './obsidian/source';
import { runCopyPackCommand, type CopyPackContext } from './ui/copy-pack';
import { FilterModal } from './ui/filter-modal';
import { QUERY_COMMANDS, type QueryCommandSpec } from './ui/query-commands';
import { QueryPromptModal } from './ui/query-prompt';
import { ResultsModal } from './ui/results-modal';

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
	/** A context pack (seed 004): the same object as `vault-query pack --json`; budget defaults to the `packBudget` setting. */
	pack(request: PackRequest): Promise<ContextPack>;
	/** Resolves once the index is ready (Obsidian has loaded and indexed the vault). */
	whenReady(): Promise<void>;
	/** `loading`, `indexing` or `ready` (see src/obsidian/index-lifecycle.ts). */
	state(): IndexState;
}

/** The seed's optional reader parameters (folders, max_results, min_confidence, …) for the API. */
export type ReaderOptions = Omit<ReaderRequest, 'operation' | 'slug' | 'where' | 'pattern'>;

/** Everything the plugin stores: the engine settings plus the reader's schema note and default folders. */
export interface PluginSettings extends EngineSettings {
	/** Vault path of the schema note the reader validates against. */
	schemaPath: string;
	/** Folders the reader searches when a request names none. */
	readerFolders: string[];
	/** The last filter typed in the filter command, offered again next time. */
	lastFilter: string;
	/** Token budget of "Copy context pack" and of `api.pack` when the request names none. */
	packBudget: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringList(value: unknown): string[] | null {
	if (!Array.isArray(value)) return null;
	const strings = value.filter((v): v is string => typeof v === 'string');
	return strings.length === value.length ? strings : null;
}

function wholeNumber(value: unknown, min: number): number | null {
	return typeof value === 'number' && Number.isInteger(value) && value >= min ? value : null;
}

/** The defaults, with every well-typed value from `data.json` laid over them (anything malformed is ignored). */
function mergeSettings(saved: unknown): PluginSettings {
	const s = isRecord(saved) ? saved : {};
	return {
		...mergeEngineSettings(s),
		schemaPath: typeof s.schemaPath === 'string' && s.schemaPath.trim() !== '' ? s.schemaPath : DEFAULT_READER_SETTINGS.schemaPath,
		readerFolders: stringList(s.readerFolders) ?? [...DEFAULT_READER_SETTINGS.defaultFolders],
		lastFilter: typeof s.lastFilter === 'string' ? s.lastFilter : '',
		packBudget: wholeNumber(s.packBudget, 1) ?? DEFAULT_BUDGET,
	};
}

/** The engine part of the saved settings. */
function mergeEngineSettings(s: Record<string, unknown>): EngineSettings {
	const tiers = Array.isArray(s.authorityOrder) ? s.authorityOrder.map(stringList).filter((t) => t !== null) : null;
	return {
		excludedFolders: stringList(s.excludedFolders) ?? [...DEFAULT_SETTINGS.excludedFolders],
		authorityOrder: tiers && Array.isArray(s.authorityOrder) && tiers.length === s.authorityOrder.length ? tiers : DEFAULT_SETTINGS.authorityOrder.map((t) => [...t]),
		linksKey: typeof s.linksKey === 'string' ? s.linksKey : DEFAULT_SETTINGS.linksKey,
		defaultLimit: wholeNumber(s.defaultLimit, 1) ?? DEFAULT_SETTINGS.defaultLimit,
		excerptChars: wholeNumber(s.excerptChars, 0) ?? DEFAULT_SETTINGS.excerptChars,
		contextLines: wholeNumber(s.contextLines, 0) ?? DEFAULT_SETTINGS.contextLines,
	};
}

/** Vault Query inside Obsidian: structural queries over MetadataCache, as commands and as an API. */
export default class VaultQueryPlugin extends Plugin {
	/** Engine settings: the defaults merged with `data.json` (a settings tab comes later). */
	override settings: PluginSettings = mergeSettings(null);
	/** The engine's port over this vault (reads nothing until asked). */
	readonly source = new ObsidianNoteSource(this.app);
	/** Readiness and event wiring; a child component from `onload` on. */
	readonly index = new IndexLifecycle(this.app, this.source);
	/** The ranked-search index for context packs, built after the vault is ready and kept current. */
	readonly searchIndex = new SearchIndexLifecycle(this.app, this.source, this.index);

	/** The public API (see {@link VaultQueryApi}). */
	readonly api: VaultQueryApi = {
		query: (query) => this.queryJson(query),
		lookup: (slug, options) => this.readJson({ ...options, operation: 'lookup', slug }),
		filter: (where, options) => this.readJson({ ...options, operation: 'filter', where }),
		graph: (slug, options) => this.readJson({ ...options, operation: 'graph', slug }),
		textSearch: (pattern, options) => this.readJson({ ...options, operation: 'text-search', pattern }),
		pack: (request) => this.packJson(request),
		whenReady: () => this.index.whenReady(),
		state: () => this.index.state,
	};

	/** Light: the lifecycle child, settings and the commands. Indexing waits for layout-ready. */
	override async onload(): Promise<void> {
		this.addChild(this.index);
		this.addChild(this.searchIndex);
		await this.loadSettings();
		for (const spec of QUERY_COMMANDS) {
			this.addCommand({ id: spec.id, name: spec.name, callback: () => this.openPrompt(spec) });
		}
		this.addCommand({ id: 'filter-by-properties', name: 'Filter notes by properties', callback: () => this.openFilter() });
		this.addCommand({ id: 'copy-context-pack', name: 'Copy context pack', callback: () => runCopyPackCommand(this.packContext()) });
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

	/** Builds a context pack (budget from the settings unless given) and returns a JSON copy; `failed` before layout-ready. */
	private async packJson(request: PackRequest): Promise<ContextPack> {
		const full = { ...request, budget: request.budget ?? this.settings.packBudget };
		if (this.index.state === 'loading') return failedContextPack(full, this.source.vaultPath, INDEX_BUILDING);
		const pack = await buildPack(this.source, await this.searchIndex.get(), full);
		return JSON.parse(JSON.stringify(pack)) as ContextPack;
	}

	private packContext(): CopyPackContext {
		return { app: this.app, budget: () => this.settings.packBudget, pack: (request) => this.packJson(request), indexReady: () => this.searchIndex.isBuilt };
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
