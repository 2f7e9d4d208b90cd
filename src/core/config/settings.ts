import type { EngineConfig, SearchTuning } from '../engine/config';
import { DEFAULT_BUDGET } from '../pack/pack';
import { DEFAULT_READER_SETTINGS } from '../reader/index';
import { DEFAULT_SEARCH_SETTINGS } from '../search/search';
import { DEFAULT_SETTINGS, SORT_ORDERS, type EngineSettings, type SortOrder } from '../settings';

/**
 * The settings of both faces: the plugin stores them in `<configDir>/plugins/vault-query/data.json`
 * and the CLI reads that same file (src/node/config.ts). The plugin's settings (`data.json`): the engine settings of structural queries, the reader's
 * schema note and folders, and the ranked-search and context-pack settings. One list of excluded
 * folders serves every face. The ranked-search defaults are the CLI's, so `api.search` and
 * `api.pack` answer exactly as `vault-query search` and `vault-query pack` do until the user
 * changes them.
 */

/** Everything the plugin stores. */
export interface PluginSettings extends EngineSettings {
	/** The named profile whose conventions were applied (`team-folders`), or '' for Obsidian's rules only. */
	profile: string;
	/** Vault path of the schema note the reader validates against. */
	schemaPath: string;
	/** Folders the reader searches when a request names none. */
	readerFolders: string[];
	/** The last filter typed in the filter command, offered again next time. */
	lastFilter: string;
	/** Token budget of "Copy context pack" and of `api.pack` when the request names none. */
	packBudget: number;
	/** Keep `status: draft` notes in context packs when the request does not say. */
	packIncludeDrafts: boolean;
	/** Keep archived notes in context packs when the request does not say. */
	packIncludeArchived: boolean;
	/** Ranked results when a search names no limit (modal, side panel, code blocks, `api.search`). */
	searchLimit: number;
	/** Characters in a ranked hit's excerpt. */
	searchExcerptChars: number;
	/** Vault path of the keyword-index note; empty disables it. */
	keywordIndexPath: string;
	/** Vault path of the synonym note; empty disables it. */
	synonymsPath: string;
	/** `Key: value` of the property that marks a synthesis note; empty disables the boost. */
	synthesisMarker: string;
}

/** The defaults: the engine's, the reader's and ranked search's (the CLI's). */
export const DEFAULT_PLUGIN_SETTINGS: PluginSettings = {
	...DEFAULT_SETTINGS,
	profile: '',
	schemaPath: DEFAULT_READER_SETTINGS.schemaPath,
	readerFolders: [...DEFAULT_READER_SETTINGS.defaultFolders],
	lastFilter: '',
	packBudget: DEFAULT_BUDGET,
	packIncludeDrafts: false,
	packIncludeArchived: false,
	searchLimit: DEFAULT_SEARCH_SETTINGS.defaultLimit,
	searchExcerptChars: DEFAULT_SEARCH_SETTINGS.excerptChars,
	keywordIndexPath: DEFAULT_SEARCH_SETTINGS.keywordIndexPath,
	synonymsPath: DEFAULT_SEARCH_SETTINGS.synonymsPath,
	synthesisMarker: `${DEFAULT_SEARCH_SETTINGS.synthesisField}: ${DEFAULT_SEARCH_SETTINGS.synthesisValue}`,
};

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

function text(value: unknown, fallback: string, allowEmpty = true): string {
	return typeof value === 'string' && (allowEmpty || value.trim() !== '') ? value : fallback;
}

function flag(value: unknown, fallback: boolean): boolean {
	return typeof value === 'boolean' ? value : fallback;
}

/**
 * `base` (default: the defaults) with every well-typed value from `data.json` laid over it
 * (anything malformed is ignored, so a hand-edited file never breaks either face).
 */
export function mergeSettings(saved: unknown, base: PluginSettings = DEFAULT_PLUGIN_SETTINGS): PluginSettings {
	const s = isRecord(saved) ? saved : {};
	const d = base;
	return {
		...mergeEngineSettings(s, d),
		profile: text(s.profile, d.profile),
		schemaPath: text(s.schemaPath, d.schemaPath, false),
		readerFolders: stringList(s.readerFolders) ?? [...d.readerFolders],
		lastFilter: text(s.lastFilter, ''),
		packBudget: wholeNumber(s.packBudget, 1) ?? d.packBudget,
		packIncludeDrafts: flag(s.packIncludeDrafts, d.packIncludeDrafts),
		packIncludeArchived: flag(s.packIncludeArchived, d.packIncludeArchived),
		searchLimit: wholeNumber(s.searchLimit, 1) ?? d.searchLimit,
		searchExcerptChars: wholeNumber(s.searchExcerptChars, 20) ?? d.searchExcerptChars,
		keywordIndexPath: text(s.keywordIndexPath, d.keywordIndexPath),
		synonymsPath: text(s.synonymsPath, d.synonymsPath),
		synthesisMarker: text(s.synthesisMarker, d.synthesisMarker),
	};
}

/** A sort order by name, or null. */
function sortOrder(value: unknown): SortOrder | null {
	return SORT_ORDERS.find((order) => order === value) ?? null;
}

/** The engine part of the saved settings, over `d`. */
function mergeEngineSettings(s: Record<string, unknown>, d: EngineSettings = DEFAULT_SETTINGS): EngineSettings {
	const tiers = Array.isArray(s.authorityOrder) ? s.authorityOrder.map(stringList).filter((t) => t !== null) : null;
	return {
		excludedFolders: stringList(s.excludedFolders) ?? [...d.excludedFolders],
		authorityOrder:
			tiers && Array.isArray(s.authorityOrder) && tiers.length === s.authorityOrder.length
				? tiers
				: d.authorityOrder.map((t) => [...t]),
		sort: sortOrder(s.sort) ?? d.sort,
		linksKey: typeof s.linksKey === 'string' ? s.linksKey : d.linksKey,
		dateFields: stringList(s.dateFields) ?? [...d.dateFields],
		defaultLimit: wholeNumber(s.defaultLimit, 1) ?? d.defaultLimit,
		excerptChars: wholeNumber(s.excerptChars, 0) ?? d.excerptChars,
		contextLines: wholeNumber(s.contextLines, 0) ?? d.contextLines,
	};
}

/** `Key: value` split at the first colon; an empty or colon-less marker disables the synthesis boost. */
export function parseSynthesisMarker(marker: string): { field: string; value: string } | null {
	const colon = marker.indexOf(':');
	if (colon <= 0) return null;
	const field = marker.slice(0, colon).trim();
	const value = marker.slice(colon + 1).trim();
	return field === '' || value === '' ? null : { field, value };
}

/** The ranked-search tuning these settings make (scope and links key come from the engine settings). */
export function searchTuningOf(settings: PluginSettings): SearchTuning {
	const marker = parseSynthesisMarker(settings.synthesisMarker);
	return {
		defaultLimit: settings.searchLimit,
		excerptChars: settings.searchExcerptChars,
		keywordIndexPath: settings.keywordIndexPath.trim(),
		synonymsPath: settings.synonymsPath.trim(),
		// why: no marker means no note can qualify, which is what "disable the boost" should mean.
		synthesisField: marker?.field ?? '',
		synthesisValue: marker?.value ?? '',
		synthesisBoost: marker === null ? 1 : DEFAULT_SEARCH_SETTINGS.synthesisBoost,
	};
}

/** The engine's settings part of these settings (a copy). */
export function engineSettingsOf(settings: PluginSettings): EngineSettings {
	return {
		excludedFolders: [...settings.excludedFolders],
		authorityOrder: settings.authorityOrder.map((tier) => [...tier]),
		sort: settings.sort,
		linksKey: settings.linksKey,
		dateFields: [...settings.dateFields],
		defaultLimit: settings.defaultLimit,
		excerptChars: settings.excerptChars,
		contextLines: settings.contextLines,
	};
}

/** The VaultEngine configuration these settings make: the same answers from the CLI as from the plugin. */
export function engineConfigOf(settings: PluginSettings): EngineConfig {
	return {
		settings: engineSettingsOf(settings),
		reader: { schemaPath: settings.schemaPath, defaultFolders: [...settings.readerFolders] },
		search: searchTuningOf(settings),
		// why: the built-in budget is left out so the handoff can say the default was used.
		pack: {
			...(settings.packBudget === DEFAULT_BUDGET ? {} : { budget: settings.packBudget }),
			includeDrafts: settings.packIncludeDrafts,
			includeArchived: settings.packIncludeArchived,
		},
	};
}
