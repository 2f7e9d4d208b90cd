import type { PluginSettings } from './settings';

/**
 * Named profiles: one team's conventions, one switch away (setting "Profile", `--profile NAME`).
 * The defaults follow Obsidian's rules only; a profile lays its values over them, and whatever
 * the user set explicitly (data.json, flags) still wins.
 */
export interface Profile {
	/** One line for `vault-query config` and the settings tab. */
	description: string;
	/** The settings the profile sets. */
	settings: Partial<PluginSettings>;
}

/** The profiles shipped with Vault Query. */
export const PROFILES: Readonly<Record<string, Profile>> = {
	'team-folders': {
		description:
			"A team's folder conventions and authority order: skips .templates/, _inbox/.dropped/, _views/ and .trash/, ranks facts/ and decisions/ first, reads Notes/ and skill-lab/ in schema-strict reads, keyword index at .claude/index.md",
		settings: {
			excludedFolders: ['.templates/', '_inbox/.dropped/', '_views/', '.trash/'],
			authorityOrder: [
				['facts/', 'decisions/'],
				['insights/', 'research/'],
				['digests/', 'events/'],
				['people/', 'projects/'],
			],
			readerFolders: ['Notes/', 'skill-lab/'],
			keywordIndexPath: '.claude/index.md',
		},
	},
};

/** Every profile name, for help and errors. */
export const PROFILE_NAMES: readonly string[] = Object.keys(PROFILES);

/**
 * Former names still accepted, mapped to the profile's name: a data.json or script written
 * before a rename keeps working, and the answer shows the current name.
 */
export const PROFILE_ALIASES: Readonly<Record<string, string>> = { ob1: 'team-folders' };

/** The profile called `name` or one of its former names (case-insensitive), or null. */
export function profileNamed(name: string): { name: string; profile: Profile } | null {
	const wanted = name.trim().toLowerCase();
	const key =
		PROFILE_NAMES.find((n) => n.toLowerCase() === wanted) ??
		Object.entries(PROFILE_ALIASES).find(([alias]) => alias === wanted)?.[1];
	const profile = key === undefined ? undefined : PROFILES[key];
	return key === undefined || profile === undefined ? null : { name: key, profile };
}
