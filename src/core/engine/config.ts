/**
 * What a {@link VaultEngine} is configured with, and the per-operation settings derived from it.
 * One configuration: the reader, ranked search and packs build on the engine settings rather
 * than copying their fields, so the links key and the exclusions can never differ between them.
 */
import { DEFAULT_READER_SETTINGS, type ReaderSettings } from '../reader/types';
import { resolveSearchSettings, type SearchSettings } from '../search/settings';
import { DEFAULT_SETTINGS, type EngineSettings } from '../settings';

/** Ranked-search tuning; scope (excluded folders) and the links key always come from the engine settings. */
export type SearchTuning = Partial<Omit<SearchSettings, 'excludedFolders' | 'linksKey'>>;

/**
 * Defaults a pack request falls back to when it leaves a choice out. A face without its own
 * default leaves `budget` out, so the pack says the seed's default was used.
 */
export interface PackDefaults {
	/** Token budget (the pack's own default is 2000). */
	budget: number;
	/** Keep `status: draft` notes. */
	includeDrafts: boolean;
	/** Keep archived notes. */
	includeArchived: boolean;
}

/** Everything an engine is configured with; every part is optional (the defaults are the CLI's). */
export interface EngineConfig {
	/** Shared by every operation: exclusions, authority order, links key, limits, excerpts. */
	settings?: Partial<EngineSettings>;
	/** The schema-strict reader's schema note, default folders and caps. */
	reader?: Partial<Omit<ReaderSettings, 'engine'>>;
	/** Ranked-search tuning (field weights, side notes, limits). */
	search?: SearchTuning;
	/** Pack defaults. */
	pack?: Partial<PackDefaults>;
}

/** A configuration with every default filled in. */
export interface ResolvedConfig {
	settings: EngineSettings;
	reader: ReaderSettings;
	search: SearchSettings;
	pack: Partial<PackDefaults>;
}

/** Fill in the defaults and derive the reader's and search's settings from the engine settings. */
export function resolveConfig(config: EngineConfig = {}): ResolvedConfig {
	const settings: EngineSettings = { ...DEFAULT_SETTINGS, ...config.settings };
	const reader: ReaderSettings = { ...DEFAULT_READER_SETTINGS, ...config.reader, engine: settings };
	// why: scope and the links key are engine settings; search takes them from there (issue 9, case 5).
	const search = resolveSearchSettings({
		...config.search,
		excludedFolders: [...settings.excludedFolders],
		linksKey: settings.linksKey,
	});
	const pack: Partial<PackDefaults> = { ...config.pack };
	return { settings, reader, search, pack };
}

/** Whether two configurations build the same ranked-search index (else it must be rebuilt). */
export function sameSearchIndex(a: ResolvedConfig, b: ResolvedConfig): boolean {
	return JSON.stringify(a.search) === JSON.stringify(b.search);
}
