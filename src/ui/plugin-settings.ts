import { DEFAULT_BUDGET } from '../core/pack/pack';
import { DEFAULT_READER_SETTINGS } from '../core/reader/index';
import type { EngineConfig } from '../core/engine/engine';
import { DEFAULT_SEARCH_SETTINGS } from '../core/search/search';
import { DEFAULT_SETTINGS, type EngineSettings } from '../core/settings';

/**
 * The plugin's settings (`data.json`): the engine settings of structural queries, the reader's
 * schema note and folders, and the ranked-search and context-pack settings. One list of excluded
 * folders serves every face. The ranked-search defaults are the CLI's, so `api.search` and
 * `api.pack` answer exactly as `vault-query search` and `vault-query pack` do until the user
 * changes them.
 */

/** Everything the plugin stores. */
export interface PluginSettings extends EngineSettings {
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

/** The defaults, with every well-typed value from `data.json` laid over them (anything malformed is ignored). */
export function mergeSettings(saved: unknown): PluginSettings {
	const s = isRecord(saved) ? saved : {};
	const d = DEFAULT_PLUGIN_SETTINGS;
	return {
		...mergeEngineSettings(s),
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

/** `Key: value` split at the first colon; an empty or colon-less marker disables the synthesis boost. */
export function parseSynthesisMarker(marker: string): { field: string; value: string } | null {
	const colon = marker.indexOf(':');
	if (colon <= 0) return null;
	const field = marker.slice(0, colon).trim();
	const value = marker.slice(colon + 1).trim();
	return field === '' || value === '' ? null : { field, value };
}

/**
 * The engine configuration these plugin settings make: the engine settings as they are (so the
 * links key and the exclusions reach ranked search and packs too), the reader's schema and
 * folders, the search tuning and the pack defaults. Everything else keeps the CLI's defaults.
 */
export function engineConfigOf(settings: PluginSettings): EngineConfig {
	const marker = parseSynthesisMarker(settings.synthesisMarker);
	const { excludedFolders, authorityOrder, linksKey, defaultLimit, excerptChars, contextLines } = settings;
	return {
		settings: { excludedFolders: [...excludedFolders], authorityOrder, linksKey, defaultLimit, excerptChars, contextLines },
		reader: { schemaPath: settings.schemaPath, defaultFolders: settings.readerFolders },
		search: {
			defaultLimit: settings.searchLimit,
			excerptChars: settings.searchExcerptChars,
			keywordIndexPath: settings.keywordIndexPath.trim(),
			synonymsPath: settings.synonymsPath.trim(),
			// why: no marker means no note can qualify, which is what "disable the boost" should mean.
			synthesisField: marker?.field ?? '',
			synthesisValue: marker?.value ?? '',
			synthesisBoost: marker === null ? 1 : DEFAULT_SEARCH_SETTINGS.synthesisBoost,
		},
		pack: { budget: settings.packBudget, includeDrafts: settings.packIncludeDrafts, includeArchived: settings.packIncludeArchived },
	};
}
