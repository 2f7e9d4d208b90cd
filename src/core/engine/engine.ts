/**
 * `VaultEngine`: the one object every face calls (CLI, plugin, MCP server, Obsidian CLI handlers).
 * A session over a {@link NoteSource} and one configuration that owns the ranked-search index
 * and the scope rules, answers every operation, and applies incremental changes in order.
 *
 * @example
 * ```ts
 * const engine = new VaultEngine(await openVault('/path/to/vault'), { settings: { linksKey: 'related' } });
 * await engine.query({ type: 'backlinks', target: 'Topic' });
 * await engine.search('tag:#security xss', { limit: 5 });
 * await engine.note({ ref: 'Topic#Open questions' });
 * await engine.upsert('notes/new.md'); // after the source has seen the edit
 * ```
 */
import type { QueryResult } from '../contract';
import type { BaseRequest, BaseResult } from '../bases/index';
import type { LinkGraph } from '../link-graph';
import { buildPack, failedPackOf, type ContextPack, type PackRequest } from '../pack/pack';
import type { NoteSource } from '../port';
import { runQuery, type StructuredResult } from '../query/run';
import type { GrepQuery, StructuredQuery } from '../query/types';
import { runGrepStream, type GrepSink } from '../query/grep-stream';
import { runReader, type ReaderReport, type ReaderRequest, type ReaderSink, type SchemaFile } from '../reader/index';
import { scopeRules, type ScopeRules } from '../scope';
import {
	parseQuery,
	search,
	SearchIndex,
	type BuildOptions,
	type ParsedQuery,
	type SearchResult,
} from '../search/search';
import { retryingSaved, SavedIndexDamaged } from '../search/index-state';
import type { FedNotes } from '../search/fed-notes';
import type { EngineSettings } from '../settings';
import type { TrigramIndex } from '../text/trigram';
import { resolveConfig, sameSearchIndex, type EngineConfig, type ResolvedConfig } from './config';
import { readNote, type NoteAnswer, type NoteRequest } from './note';
import { applyPath, type ChangeSteps } from './apply';
import { LinkState } from './link-state';
import { baseAnswer, basesInScope } from './bases';
import { schemaDraftOf } from './schema-draft';
import { buildTrigramIndex, refreshTrigrams, type SavedIndexes } from './saved';
import { drain, type TimeSlice } from '../steps';
import { engineStatus, type EngineStatus, type SearchIndexState } from './status';

export type { EngineConfig, PackDefaults, ResolvedConfig, SearchTuning } from './config';
export type { NoteAnswer, NoteRequest, NoteText } from './note';
export type { EngineStatus, SearchIndexState } from './status';
export { carriedIndexes, type HeldIndexes, type SavedIndex, type SavedIndexes } from './saved';

/** Options of one ranked search through the engine. */
export interface EngineSearchOptions {
	/** Maximum hits (default: the search settings' `defaultLimit`). */
	limit?: number;
	/** Complete the last word as a prefix (search as you type). */
	prefixLast?: boolean;
	/** Fill each hit's backlinks (default true: the contract's full hit). */
	withBacklinks?: boolean;
	/** Search only notes under these folders. */
	folders?: string[];
	/** A host's time budget for the search's pass over every note's links (the answer is the same). */
	slice?: TimeSlice;
}

/** Steps run at once (a host with no slices). */
const atOnce = (steps: Generator<void, void, void>): Promise<void> => Promise.resolve(drain(steps));

/** The engine: see the module comment. */
export class VaultEngine {
	private config: ResolvedConfig;
	private index: SearchIndex | null = null;
	private building: Promise<SearchIndex> | null = null;
	private buildMs: number | null = null;
	/** Bumped by every build and drop, so a build that was dropped meanwhile is not installed. */
	private generation = 0;
	/** Paths changed while the index builds: re-checked against the source once it is built. */
	private readonly pending = new Set<string>();
	/** Incremental changes apply one after another, in the order they were made. */
	private changes: Promise<void> = Promise.resolve();
	/** The link graph and what `reuseGraph` queries share, dropped after any change. */
	private readonly links: LinkState;
	/**
	 * A trigram candidate index (core/text/trigram.ts) that grep and text-search use when set — the
	 * persisted snapshot loads one. Every change the engine is told about forgets the paths it
	 * touches, so an edited note is scanned rather than trusted; whoever set the index may upsert it
	 * again. Null: every grep scans every note.
	 */
	trigrams: TrigramIndex | null = null;
	/** Indexes saved by an earlier process, used instead of a build (the CLI's index parts); null: build. */
	saved: SavedIndexes | null = null;
	/** The search index a read from scratch was fed (core/search/fed-notes.ts): the first build finishes it. */
	fed: FedNotes | null = null;
	/** How a change's upsert runs on a host's main thread (in steps of a bounded dictionary decode); null: in one go. */
	changeSteps: ChangeSteps | null = null;
	/** The saved search index failed a check: build instead of loading it again. */
	private savedSearchDamaged = false;
	private trigramsLoading: Promise<TrigramIndex | null> | null = null;

	/** A session over `source`; nothing is read until an operation asks. */
	constructor(
		readonly source: NoteSource,
		config: EngineConfig = {},
	) {
		this.config = resolveConfig(config);
		this.links = new LinkState(source, () => this.config.settings);
	}

	/** The resolved configuration (engine, reader, search and pack settings). */
	get settings(): ResolvedConfig {
		return this.config;
	}

	/** The engine settings every operation shares. */
	get engineSettings(): EngineSettings {
		return this.config.settings;
	}

	/**
	 * Replace the configuration. When the change shapes the search index (links key, exclusions,
	 * side notes, weights) the index is dropped and rebuilt on next use; returns whether it was.
	 */
	configure(config: EngineConfig): boolean {
		const next = resolveConfig(config);
		const rebuild = !sameSearchIndex(this.config, next);
		this.config = next;
		this.links.drop();
		if (rebuild) this.dropSearchIndex();
		return rebuild;
	}

	/** The rule that leaves `path` out of every operation, or null when it is in scope (core/scope.ts). */
	excludedBy(path: string): string | null {
		return this.rulesNow().ruleFor(path);
	}

	/**
	 * A structural query (tag, prop, backlinks, links, grep): the `vault-query <type> --json` object.
	 * `reuseGraph`: answer from the engine's cached link graph (`linkGraph()`) instead of building
	 * one for this query — for a host whose source never changes under this engine (the MCP
	 * server makes a new engine per refresh). `stopAtLimit` (with `reuseGraph`): a grep reads notes
	 * in result order and stops past its limit, saying `more` instead of counting every match.
	 */
	async query(
		query: StructuredQuery,
		options: { reuseGraph?: boolean; stopAtLimit?: boolean } = {},
	): Promise<StructuredResult> {
		const trigrams = query.type === 'grep' ? await this.trigramIndex() : this.trigrams;
		if (options.reuseGraph !== true) return runQuery(this.source, query, this.config.settings, trigrams);
		// Only a grep reads in result order: other types need not have the whole scope sorted first.
		if (options.stopAtLimit !== true || query.type !== 'grep')
			return runQuery(this.source, query, this.config.settings, trigrams, {
				...this.links.shared(),
				order: undefined,
			});
		return runQuery(this.source, query, this.config.settings, trigrams, this.links.ordered());
	}

	/**
	 * A grep whose matching notes go to `sink` one at a time, in result order, as they are found
	 * (the scan stops past the limit, as `stopAtLimit`): a full answer is written as it is read,
	 * never held whole. Resolves with the envelope without its results.
	 */
	async grepStream(query: GrepQuery, sink: GrepSink): Promise<QueryResult> {
		const trigrams = await this.trigramIndex();
		const reuse = this.links.ordered();
		const ordered = { ...reuse, order: reuse.order ?? [] };
		return runGrepStream(this.source, query, this.config.settings, trigrams, ordered, sink);
	}

	/** Build now what `reuseGraph` queries share (link graph, result order, name index): a server's first calls then need not (~0.5 s at 50k). */
	warmQueries(): void {
		this.links.warm();
	}

	/** A schema-strict read (lookup, filter, graph, text-search); `schemaFile` is a schema note from outside the vault. */
	async read(request: ReaderRequest, schemaFile?: SchemaFile): Promise<ReaderReport> {
		const trigrams = request.operation === 'text-search' ? await this.trigramIndex() : this.trigrams;
		return runReader(this.source, request, this.config.reader, schemaFile, trigrams);
	}

	/**
	 * A text-search whose results go to `sink` one at a time, in the report's order, as they are
	 * found: a full answer is written as it is read, never held whole. Resolves with the report
	 * without its results.
	 */
	async readStream(
		request: ReaderRequest & { operation: 'text-search' },
		sink: ReaderSink,
		schemaFile?: SchemaFile,
	): Promise<ReaderReport> {
		return runReader(this.source, request, this.config.reader, schemaFile, await this.trigramIndex(), sink);
	}

	/**
	 * The trigram index grep reads candidates from: the one set, else the saved one brought up to
	 * date (changed notes re-indexed), else — when the host asks for it — one built now; null: scan.
	 */
	trigramIndex(build = true): Promise<TrigramIndex | null> {
		if (this.trigrams !== null || this.saved === null) return Promise.resolve(this.trigrams);
		if (!build && this.trigramsLoading === null) return this.loadTrigrams(false);
		this.trigramsLoading ??= this.loadTrigrams(this.saved.buildTrigrams).finally(
			() => (this.trigramsLoading = null),
		);
		return this.trigramsLoading;
	}

	/** The saved trigram index brought up to date, else (when `build`) one built now, else null. */
	private async loadTrigrams(build: boolean): Promise<TrigramIndex | null> {
		await this.changes;
		const loaded = (await this.saved?.trigramIndex()) ?? null;
		if (loaded !== null) for (const path of loaded.changed) await refreshTrigrams(loaded.index, this.source, path);
		this.trigrams ??= loaded?.index ?? (build ? await buildTrigramIndex(this.source) : null);
		return this.trigrams;
	}

	/**
	 * The saved indexes this engine was handed and has not started to use for search (none built,
	 * none building, none found damaged), for a successor to take over unchanged; else null.
	 */
	get unusedSavedIndexes(): SavedIndexes | null {
		return this.index === null && this.building === null && !this.savedSearchDamaged ? this.saved : null;
	}

	/** The ranked-search index when built or loaded, without building it (what a host saves). */
	get builtSearchIndex(): SearchIndex | null {
		return this.index;
	}

	/** A ranked search over the engine's index (built first when needed); the query as text or already parsed (`parseQuery`). */
	async search(query: string | ParsedQuery, options: EngineSearchOptions = {}): Promise<SearchResult> {
		return this.withIndex((index) => this.searchWith(index, query, options));
	}

	private async searchWith(
		index: SearchIndex,
		query: string | ParsedQuery,
		options: EngineSearchOptions,
	): Promise<SearchResult> {
		// Phrases and regexes read only the notes the trigram index names — when one is at hand: building one would read every note.
		const parsed = typeof query === 'string' ? parseQuery(query) : query;
		const trigrams =
			parsed.phrases.length > 0 || parsed.regexes.some((r) => !r.negate) ? await this.trigramIndex(false) : null;
		return search(index, query, {
			limit: options.limit,
			prefixLast: options.prefixLast,
			withBacklinks: options.withBacklinks ?? true,
			folders: options.folders,
			trigrams,
			dateFields: this.config.settings.dateFields,
			slice: options.slice,
		});
	}

	/** A context pack; the budget and draft/archived choices default to the pack settings. */
	async pack(request: PackRequest): Promise<ContextPack> {
		const d = this.config.pack;
		const full: PackRequest = {
			...request,
			budget: request.budget ?? d.budget,
			includeDrafts: request.includeDrafts ?? (d.includeDrafts === true || undefined),
			includeArchived: request.includeArchived ?? (d.includeArchived === true || undefined),
		};
		if (request.base !== undefined) {
			// A base view as the scope: the pack may quote exactly the notes of the view's rows.
			const view = await this.base({ base: request.base });
			if (view.status === 'failed')
				return failedPackOf(full, this.source.vaultPath, view.error ?? 'base: failed');
			full.paths = view.rows.map((row) => row.path).filter((p) => p.toLowerCase().endsWith('.md'));
		}
		return this.withIndex((index) =>
			buildPack(this.source, index, full, { dateFields: this.config.settings.dateFields }),
		);
	}

	/**
	 * Run `use` over the current search index. A saved index is read as queries ask; a read of bytes
	 * not loaded yet (SavedIndexPending) waits for them and runs again; a read that fails its check
	 * (SavedIndexDamaged) drops it, and the query runs again over one built from the notes.
	 */
	private withIndex<T>(use: (index: SearchIndex) => Promise<T>): Promise<T> {
		return retryingSaved(
			async () => use(await this.currentIndex()),
			(damaged) => this.dropDamagedIndex(damaged),
		);
	}

	/** Forget a saved search index found damaged; the next search builds one from the notes (and the host saves it). */
	private dropDamagedIndex(error: SavedIndexDamaged): void {
		this.saved?.damaged?.('search', error.message);
		this.savedSearchDamaged = true;
		this.dropSearchIndex();
	}

	/**
	 * Compacts the built search index when the next search would (many edits since the last
	 * compaction, see `InvertedIndex.needsCompaction`), so a host pays for it while idle: at once, or
	 * in a host's slices (`run`), searches and changes landing in its pauses; false when there was
	 * nothing to do. Edits never change answers before it (removed notes' postings are never counted).
	 */
	async foldSearchEdits(run: (steps: Generator<void, void, void>) => Promise<void> = atOnce): Promise<boolean> {
		const index = this.index;
		if (index === null || !index.index.needsCompaction) return false;
		try {
			await run(index.index.compactSteps());
		} catch (error) {
			if (!(error instanceof SavedIndexDamaged)) throw error; // a saved record not loaded yet: a search folds later
			if (this.index === index) this.dropDamagedIndex(error);
			return false;
		}
		return true;
	}

	/** The search index with every change made so far applied. */
	private async currentIndex(): Promise<SearchIndex> {
		await this.changes;
		return this.searchIndex();
	}

	/**
	 * A schema note drafted from the frontmatter of the notes in scope (narrowed to `folders`):
	 * Markdown the reader accepts as it stands (core/schema/draft.ts). Nothing is written.
	 */
	schemaDraft(folders?: string[]): Promise<string> {
		return schemaDraftOf(this.source, this.config.settings, this.config.reader.schemaPath, folders);
	}

	/** A note or one section of it, verbatim, with its line range (see note.ts). */
	note(request: NoteRequest): Promise<NoteAnswer> {
		return readNote(this.source, this.rulesNow(), request);
	}

	/** A base's view (or, with `list`, its views) evaluated over the vault: the `vault-query base --json` object. */
	base(request: BaseRequest): Promise<BaseResult> {
		return baseAnswer(this.source, this.rulesNow(), this.linkGraph(), request);
	}

	/** Every `.base` file the scope keeps, in walk order. */
	baseFiles(): string[] {
		return basesInScope(this.source, this.rulesNow());
	}

	/** What the engine indexed and left out, and why. */
	status(): EngineStatus {
		return engineStatus(this.source, this.config.settings, this.index, this.searchState, this.buildMs);
	}

	/** Where the ranked-search index is. */
	get searchState(): SearchIndexState {
		return this.index !== null ? 'ready' : this.building !== null ? 'building' : 'not built';
	}

	/** Whether the ranked-search index is built (searches answer without waiting). */
	get searchReady(): boolean {
		return this.index !== null;
	}

	/**
	 * The ranked-search index, built on first use (in slices that yield to the host, see
	 * `BuildOptions`); changes made during the build are applied to it before it is handed out.
	 */
	searchIndex(options: BuildOptions = {}): Promise<SearchIndex> {
		if (this.index) return Promise.resolve(this.index);
		if (this.building) return this.building;
		const started = Date.now();
		const generation = ++this.generation;
		const building = (async (): Promise<SearchIndex> => {
			this.pending.clear();
			const fed = this.fed ?? undefined;
			this.fed = null;
			const loaded = this.savedSearchDamaged
				? null
				: ((await this.saved?.searchIndex(this.config.search)) ?? null);
			const index =
				loaded?.index ?? (await SearchIndex.build(this.source, this.config.search, { ...options, fed }));
			if (this.generation !== generation) return index; // Dropped by a reconfiguration meanwhile.
			if (loaded !== null) {
				index.source = this.source;
				await index.loadSideNotes(this.source);
				for (const path of loaded.changed) this.pending.add(path);
			}
			await this.applyPending(index);
			if (loaded !== null && loaded.scopeLater !== true) {
				// What the rules leave out and which notes are skipped may have changed since it was saved.
				await index.refreshScope(this.source, loaded.changed, options);
				await this.applyPending(index); // changes made while it ran in slices
			}
			index.invalidateLinks();
			// The old postings of the notes applied here stay until a compaction (they are never read or counted):
			// neither a refresh nor the search after it pays the O(postings) pass.
			this.pending.clear();
			this.index = index;
			this.building = null;
			this.buildMs = Date.now() - started;
			return index;
		})();
		this.building = building;
		return building;
	}

	/**
	 * What the rules leave out and which notes are skipped, counted again for a restored index
	 * handed out with `scopeLater` (see SavedIndex): `changed` are all the notes changed since it
	 * was saved, the only ones whose skip reason is counted again. Beside live changes: an edit
	 * changes no skip list (`applyPath`), and the count reads the source as it is at each note.
	 */
	async refreshScope(changed: readonly string[], options: BuildOptions = {}): Promise<void> {
		await this.index?.refreshScope(this.source, changed, options, true);
	}

	/** Apply the changes noted while the index was built or restored (and those noted meanwhile). */
	private async applyPending(index: SearchIndex): Promise<void> {
		while (this.pending.size > 0) {
			const paths = [...this.pending];
			this.pending.clear();
			for (const path of paths) await this.applyTo(index, path);
		}
	}

	/** Forget the search index; the next search builds a new one from the current settings. */
	dropSearchIndex(): void {
		this.generation++;
		this.index = null;
		this.building = null;
		this.buildMs = null;
		this.pending.clear();
	}

	/** The link graph over the notes in scope (rebuilt after any change). */
	linkGraph(): LinkGraph {
		return this.links.linkGraph();
	}

	/**
	 * A note was created or edited (the source already shows the new state): re-read it into the
	 * index. A path that is no longer a note, or is out of scope, leaves the index instead.
	 * `text` spares the read when the host already has it.
	 */
	upsert(path: string, text?: string): Promise<void> {
		return this.enqueue([path], () => this.change(path, text));
	}

	/** A note (or a folder: every note under it) was deleted. */
	remove(path: string): Promise<void> {
		return this.enqueue([path], () => this.change(path));
	}

	/** A note or folder was renamed or moved: the old paths leave the index, the new ones are read. */
	rename(oldPath: string, newPath: string): Promise<void> {
		return this.enqueue([oldPath, newPath], async () => {
			await this.change(oldPath);
			await this.change(newPath);
		});
	}
	/** Resolves once every change so far is applied; `job` then runs before any later change (a save encoding in slices). */
	settled<T = void>(job?: () => Promise<T>): Promise<T> {
		const next = this.changes.then<T>(job);
		this.changes = next.catch(() => undefined).then(() => undefined);
		return next;
	}
	/**
	 * Queue a change. Without an index there is nothing to update — the build reads every note as
	 * it is then — except while it builds: the paths are noted now (not when the queue gets to
	 * them) and re-checked once it is built.
	 */
	private enqueue(paths: string[], step: () => Promise<void>): Promise<void> {
		this.links.drop();
		for (const path of paths) this.trigrams?.forget(path);
		if (this.index === null) {
			if (this.building !== null) for (const path of paths) this.pending.add(path);
			return this.changes;
		}
		const next = this.changes.then(step, step);
		this.changes = next.catch(() => undefined);
		return next;
	}

	private async change(path: string, text?: string): Promise<void> {
		if (this.index === null) return;
		this.index.invalidateLinks(); // Even an excluded or non-note file changes where links resolve.
		try {
			await this.applyTo(this.index, path, text);
		} catch (error) {
			if (!(error instanceof SavedIndexDamaged)) throw error;
			this.dropDamagedIndex(error); // The next search builds from the notes as they are now, this change included.
		}
	}

	/** Bring `path` in `index` in line with the source (apply.ts). */
	private applyTo(index: SearchIndex, path: string, text?: string): Promise<void> {
		return applyPath(index, this.source, () => this.rulesNow(), path, text, this.changeSteps ?? undefined);
	}

	/** The scope rules as they are now (the host's Excluded files may change at any time). */
	private rulesNow(): ScopeRules {
		return scopeRules(this.source, this.config.settings);
	}
}
