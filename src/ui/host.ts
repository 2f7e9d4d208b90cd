import type { App } from 'obsidian';
import type { ContextPack, PackRequest } from '../core/pack/pack';
import type { NoteSource } from '../core/port';
import type { StructuredResult } from '../core/query/run';
import type { StructuredQuery } from '../core/query/types';
import type { PluginEngine } from '../obsidian/plugin-engine';
import type { PluginSettings } from './plugin-settings';
import type { SearchResult } from '../core/search/search';

/**
 * What the plugin's faces (search modal, side panel, code blocks) need from the plugin — a narrow
 * port, so no face holds the plugin itself (or the other way round: the plugin holds no view).
 * Every call is gated on readiness the way the API is: before layout-ready it answers `failed`.
 */
export interface FacesHost {
	/** The Obsidian app. */
	readonly app: App;
	/** The engine's port over this vault. */
	readonly source: NoteSource;
	/** A structural query (tag, prop, backlinks, links, grep) with the plugin's engine settings. */
	query(query: StructuredQuery): Promise<StructuredResult>;
	/** A ranked search (core syntax) over the plugin's search index; `failed` before layout-ready. */
	search(text: string, options?: FaceSearchOptions): Promise<SearchResult>;
	/** A context pack; the budget and draft/archived choices default to the settings. */
	pack(request: PackRequest): Promise<ContextPack>;
	/** Whether the ranked-search index is built (else the first search waits for it). */
	searchIndexReady(): boolean;
	/** Resolves once Obsidian has indexed the vault. */
	whenReady(): Promise<void>;
	/** The default token budget (setting). */
	budget(): number;
	/** The default number of ranked results (setting). */
	searchLimit(): number;
	/** The frontmatter key whose bare note names count as links (setting; seed: `links`). */
	linksKey(): string;
}

/** Options of a face's ranked search. */
export interface FaceSearchOptions {
	/** Maximum hits (default: the setting). */
	limit?: number;
	/** Complete the last word as a prefix (search as you type). */
	prefixLast?: boolean;
	/** Fill each hit's backlinks (default false in the faces: rows do not show them). */
	withBacklinks?: boolean;
}

/** The faces' host over the plugin's engine and settings (searches skip backlinks unless asked: rows do not show them). */
export function facesHost(app: App, engine: PluginEngine, settings: () => PluginSettings): FacesHost {
	return {
		app,
		source: engine.source,
		query: (query) => engine.query(query),
		search: (text, options) => engine.search(text, { ...options, withBacklinks: options?.withBacklinks ?? false }),
		pack: (request) => engine.pack(request),
		searchIndexReady: () => engine.searchReady,
		whenReady: () => engine.whenReady(),
		budget: () => settings().packBudget,
		searchLimit: () => settings().searchLimit,
		linksKey: () => settings().linksKey,
	};
}
