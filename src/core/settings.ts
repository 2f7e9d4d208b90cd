/** How structural results are ordered (within an authority tier when the profile sets tiers). */
export type SortOrder = 'path' | 'mtime' | 'title';

/** Every sort order, for validation and help. */
export const SORT_ORDERS: readonly SortOrder[] = ['path', 'mtime', 'title'];

/** Engine settings shared by every face; the plugin's settings tab and CLI flags fill them. */
export interface EngineSettings {
	/** Folders never searched (prefixes, vault-relative). The config folder and hidden folders are always excluded too. */
	excludedFolders: string[];
	/** Authority tiers: results in earlier tiers come first; within a tier, by `sort`. Empty: no tiers. */
	authorityOrder: string[][];
	/** How results are ordered (within a tier). */
	sort: SortOrder;
	/** Frontmatter key holding bare note names that count as links (Obsidian's own: none; seed: `links`). */
	linksKey: string;
	/** Frontmatter keys that date a note, first usable one wins; else the file's modification time. */
	dateFields: string[];
	/** Default result cap for structural queries. */
	defaultLimit: number;
	/** Characters of body in a result's excerpt. */
	excerptChars: number;
	/** Lines of context either side of a grep match. */
	contextLines: number;
}

/** The usual frontmatter date keys of Obsidian vaults (core templates, community plugins, the seeds). */
export const DEFAULT_DATE_FIELDS: readonly string[] = [
	'date',
	'created',
	'updated',
	'modified',
	'date created',
	'date modified',
	'last_verified',
];

/**
 * Neutral defaults: only Obsidian's own rules decide what is searched (the config folder, hidden
 * folders, the user's Excluded files), and results sort by path. One team's conventions — its
 * folders to skip and its authority order — are a profile (src/core/config/profiles.ts).
 */
export const DEFAULT_SETTINGS: EngineSettings = {
	excludedFolders: [],
	authorityOrder: [],
	sort: 'path',
	linksKey: 'links',
	dateFields: [...DEFAULT_DATE_FIELDS],
	defaultLimit: 20,
	excerptChars: 200,
	contextLines: 2,
};
