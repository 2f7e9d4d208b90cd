import type { NoteAnswer, NoteRequest, EngineStatus } from '../core/engine/engine';
import type { ContextPack, PackRequest } from '../core/pack/pack';
import type { StructuredResult } from '../core/query/run';
import type { StructuredQuery } from '../core/query/types';
import type { ReaderReport, ReaderRequest } from '../core/reader/index';
import type { SearchResult } from '../core/search/search';
import type { IndexState } from './index-lifecycle';
import { failedEnvelope } from '../core/failure';
import type { PluginEngine } from './plugin-engine';

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
	/** A note or `Note#Heading` / `Note#^block` section, verbatim with its line range: `vault-query note --json`. */
	note(request: NoteRequest): Promise<NoteAnswer>;
	/** What is indexed and what was left out, with reasons: `vault-query status --json` plus the readiness state. */
	status(): EngineStatus & { state: IndexState };
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
	/** Search only notes under these folders. */
	folders?: string[];
}

/**
 * A deep JSON copy: answers may hold Obsidian's cached frontmatter objects, and a caller that
 * mutated them would corrupt the metadata cache.
 */
function copy<T>(value: T): T {
	return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * `run`'s answer as a JSON copy, or — when the request is malformed (other plugins call the API from
 * untyped JS: `api.note({})`) and it throws — a `failed` answer naming the method and the reason, never an exception.
 */
async function guarded<T>(method: string, run: () => Promise<T>): Promise<T> {
	try {
		const answer = copy(await run());
		const failed = answer as { status?: unknown; error?: unknown };
		// A failed answer always says why: a request with no usable type fails before any reason is set.
		if (failed.status === 'failed' && typeof failed.error !== 'string')
			failed.error = `${method}: the request is not one this method takes (see the API's types)`;
		return answer;
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		return failedEnvelope({ method }, `${method}: the request could not be read (${reason.slice(0, 300)})`) as T;
	}
}

/** The API over a plugin engine: every answer a JSON copy, gated on readiness by the engine; a malformed request answers `failed`. */
export function createApi(engine: PluginEngine): VaultQueryApi {
	const read = (method: string, request: () => ReaderRequest): Promise<ReaderReport> =>
		guarded(method, () => engine.read(request()));
	return {
		query: (query) => guarded('query', () => engine.query(query)),
		lookup: (slug, options) => read('lookup', () => ({ ...options, operation: 'lookup', slug })),
		filter: (where, options) => read('filter', () => ({ ...options, operation: 'filter', where })),
		graph: (slug, options) => read('graph', () => ({ ...options, operation: 'graph', slug })),
		textSearch: (pattern, options) => read('textSearch', () => ({ ...options, operation: 'text-search', pattern })),
		search: (query, options) =>
			guarded('search', () =>
				engine.search(query, { limit: options?.limit, folders: options?.folders, withBacklinks: true }),
			),
		pack: (request) => guarded('pack', () => engine.pack(request)),
		note: (request) => guarded('note', () => engine.note(request)),
		status: () => copy(engine.status()),
		whenReady: () => engine.whenReady(),
		state: () => engine.state,
	};
}
