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
	ob1: {
		description:
			'The OB1 team layout: skips .templates/, _inbox/.dropped/ and _views/, ranks facts/ and decisions/ first, reads Notes/ and skill-lab/, keyword index at .claude/index.md',
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

/** The profile called `name` (case-insensitive), or null. */
export function profileNamed(name: string): { name: string; profile: Profile } | null {
	const key = PROFILE_NAMES.find((n) => n.toLowerCase() === name.trim().toLowerCase());
	return key === undefined ? null : { name: key, profile: PROFILES[key] };
}
