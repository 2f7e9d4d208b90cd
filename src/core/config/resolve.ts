import { profileNamed, PROFILE_NAMES, PROFILES } from './profiles';
import { DEFAULT_PLUGIN_SETTINGS, mergeSettings, type PluginSettings } from './settings';

/**
 * The effective settings of one run, layer by layer, remembering where each value came from:
 * the defaults (Obsidian's rules only), the profile `data.json` names, the values `data.json`
 * holds, a profile given on the command line, then flags. Later layers win.
 */

/** A settings key. */
export type SettingKey = keyof PluginSettings;

/** What the caller found: the saved file (if any) and the command line's choices. */
export interface ConfigLayers {
	/** `data.json` parsed, and how reports name it; null when there is none. */
	saved?: { value: unknown; label: string } | null;
	/** A profile named on the command line (`--profile`); '' or `none` for none. */
	profile?: string;
	/** Flag values, each with the flag that set it. */
	overrides?: { key: SettingKey; value: unknown; label: string }[];
}

/** The effective settings, where each came from, and anything worth telling the user. */
export interface EffectiveConfig {
	settings: PluginSettings;
	/** Per key: `default`, `profile team-folders`, the data.json path, or the flag. */
	origins: Record<SettingKey, string>;
	/** E.g. an unknown profile in data.json, ignored. */
	notes: string[];
}

/** The profile name meaning "no profile". */
const NONE = 'none';

/** Keys any profile sets: switching profiles resets them first. */
const PROFILE_KEYS: readonly SettingKey[] = [
	...new Set(Object.values(PROFILES).flatMap((p) => Object.keys(p.settings) as SettingKey[])),
];

/** Whether `name` is a profile (or none). */
export function isProfileName(name: string): boolean {
	return name.trim() === '' || name.trim().toLowerCase() === NONE || profileNamed(name) !== null;
}

/** An error message for an unknown profile name. */
export function unknownProfile(name: string): string {
	return `unknown profile "${name}"; profiles: ${[...PROFILE_NAMES, NONE].join(', ')}`;
}

/** The keys of `partial` whose merged value equals what `partial` gave (i.e. it was well-typed and used). */
function usedKeys(partial: unknown, merged: PluginSettings): SettingKey[] {
	if (typeof partial !== 'object' || partial === null || Array.isArray(partial)) return [];
	return (Object.keys(merged) as SettingKey[]).filter(
		(key) =>
			Object.hasOwn(partial, key) &&
			JSON.stringify(merged[key]) === JSON.stringify((partial as Record<string, unknown>)[key]),
	);
}

/**
 * `settings` switched to the profile `name` (or to none): every key a profile sets goes back to
 * its default, then the chosen profile's values apply. What the settings tab does on a change.
 */
export function switchProfile(settings: PluginSettings, name: string): PluginSettings {
	const reset: Record<string, unknown> = {};
	for (const key of PROFILE_KEYS) reset[key] = DEFAULT_PLUGIN_SETTINGS[key];
	const found = profileNamed(name);
	return mergeSettings({ ...reset, ...(found?.profile.settings ?? {}), profile: found?.name ?? '' }, settings);
}

/** Lay `partial` over the config, marking the keys it set with `label`. */
function layer(config: EffectiveConfig, partial: unknown, label: string): void {
	const merged = mergeSettings(partial, config.settings);
	for (const key of usedKeys(partial, merged)) config.origins[key] = label;
	config.settings = merged;
}

/** Resolve the layers into the effective settings. Throws nothing: unknown saved values become notes. */
export function resolveConfig(layers: ConfigLayers = {}): EffectiveConfig {
	const origins = Object.fromEntries(Object.keys(DEFAULT_PLUGIN_SETTINGS).map((key) => [key, 'default'])) as Record<
		SettingKey,
		string
	>;
	const config: EffectiveConfig = { settings: mergeSettings(null), origins, notes: [] };
	// why: Obsidian's loadData() gives null before the first save; that is "no file", not a bad one.
	const saved =
		layers.saved === undefined ||
		layers.saved === null ||
		layers.saved.value === null ||
		layers.saved.value === undefined
			? null
			: layers.saved;
	const savedValue =
		saved !== null && typeof saved.value === 'object' && saved.value !== null && !Array.isArray(saved.value)
			? (saved.value as Record<string, unknown>)
			: null;
	if (saved !== null && savedValue === null) config.notes.push(`${saved.label} is not a JSON object; ignored`);
	const savedProfile = typeof savedValue?.profile === 'string' ? savedValue.profile : '';
	if (savedProfile.trim() !== '' && savedProfile.trim().toLowerCase() !== NONE) {
		const found = profileNamed(savedProfile);
		if (found) layer(config, found.profile.settings, `profile ${found.name} (${saved?.label ?? ''})`);
		else config.notes.push(`${saved?.label ?? 'data.json'}: ${unknownProfile(savedProfile)}; ignored`);
	}
	if (saved !== null && savedValue !== null) {
		layer(config, savedValue, saved.label);
		// why: an unknown or `none` profile leaves no trace; a known one is stored by its own spelling.
		config.settings.profile = profileNamed(savedProfile)?.name ?? '';
	}
	if (layers.profile !== undefined) {
		const found = profileNamed(layers.profile);
		config.settings = switchProfile(config.settings, layers.profile);
		const label = found ? `--profile ${found.name}` : `--profile ${NONE}`;
		for (const key of PROFILE_KEYS)
			config.origins[key] = found && Object.hasOwn(found.profile.settings, key) ? label : 'default';
		config.origins.profile = label;
	}
	for (const { key, value, label } of layers.overrides ?? []) layer(config, { [key]: value }, label);
	return config;
}
