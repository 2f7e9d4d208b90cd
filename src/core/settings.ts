/** Engine settings shared by every face; the plugin's settings tab and CLI flags fill them. */
export interface EngineSettings {
	/** Folders never searched (prefixes, vault-relative). The config folder is always excluded too. */
	excludedFolders: string[];
	/** Authority tiers: results in earlier tiers come first; within a tier, by path. */
	authorityOrder: string[][];
	/** Frontmatter key holding bare note names that count as links (seed: `links`). */
	linksKey: string;
	/** Default result cap for structural queries. */
	defaultLimit: number;
	/** Characters of body in a result's excerpt. */
	excerptChars: number;
	/** Lines of context either side of a grep match. */
	contextLines: number;
}

/** The defaults from seed 000 (vault-querier). */
export const DEFAULT_SETTINGS: EngineSettings = {
	excludedFolders: ['.templates/', '_inbox/.dropped/', '_views/', '.trash/'],
	authorityOrder: [
		['facts/', 'decisions/'],
		['insights/', 'research/'],
		['digests/', 'events/'],
		['people/', 'projects/'],
	],
	linksKey: 'links',
	defaultLimit: 20,
	excerptChars: 200,
	contextLines: 2,
};
