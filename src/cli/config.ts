import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
	isProfileName,
	resolveConfig,
	unknownProfile,
	type EffectiveConfig,
	type SettingKey,
} from '../core/config/resolve';
import { SORT_ORDERS } from '../core/settings';
import type { NoteSource } from '../core/port';
import { stringFlag, UsageError, type ParsedArgs } from './args';

/** Where a vault and its config folder are: all reading the settings needs. */
export type VaultLocation = Pick<NoteSource, 'vaultPath' | 'configDir'>;

/** The plugin's settings file, relative to the config folder: the CLI reads what the plugin saved. */
export const DATA_JSON = 'plugins/vault-query/data.json';

/** The text of the plugin's data.json in the vault, or null when there is none. Read only. */
export async function readDataJson(source: VaultLocation): Promise<string | null> {
	try {
		return await readFile(join(source.vaultPath, source.configDir, ...DATA_JSON.split('/')), 'utf8');
	} catch (error) {
		const code = (error as { code?: string }).code;
		if (code === 'ENOENT' || code === 'ENOTDIR') return null;
		throw error;
	}
}

/**
 * The effective settings, whether the vault has the plugin's data.json, and why it was not used
 * when it could not be (not JSON, not an object): null when it was used or is absent.
 */
export type CliConfig = EffectiveConfig & { settingsFileFound: boolean; settingsFileProblem: string | null };

/** One setting a flag can override. */
interface FlagOverride {
	key: SettingKey;
	value: unknown;
	label: string;
}

/**
 * Check the settings flags before the vault is read: `--profile` must name a profile, `--sort`
 * an order. Usage errors otherwise.
 */
export function checkSettingsFlags(args: ParsedArgs): void {
	const profile = stringFlag(args, 'profile');
	if (profile !== undefined && !isProfileName(profile)) throw new UsageError(`--profile: ${unknownProfile(profile)}`);
	const sort = stringFlag(args, 'sort');
	if (sort !== undefined && !SORT_ORDERS.some((order) => order === sort))
		throw new UsageError(`--sort must be one of ${SORT_ORDERS.join(', ')}, got "${sort}"`);
}

/**
 * The effective settings for this run: defaults, then `<configDir>/plugins/vault-query/data.json`
 * when the vault has one (a profile it names first, then its values), then `--profile`, then the
 * other flags. Read only: nothing is ever written to the vault.
 */
export async function loadCliConfig(
	source: VaultLocation,
	args: ParsedArgs,
	overrides: FlagOverride[] = [],
): Promise<CliConfig> {
	checkSettingsFlags(args);
	const label = `${source.configDir}/${DATA_JSON}`;
	const notes: string[] = [];
	let saved: { value: unknown; label: string } | null = null;
	let settingsFileFound = false;
	let settingsFileProblem: string | null = null;
	try {
		const text = await readDataJson(source);
		settingsFileFound = text !== null;
		if (text !== null) saved = { value: JSON.parse(text) as unknown, label };
	} catch (error) {
		settingsFileProblem = error instanceof Error ? error.message : String(error);
		notes.push(`${label} not used: ${settingsFileProblem}`);
	}
	const sort = stringFlag(args, 'sort');
	const all = sort === undefined ? overrides : [...overrides, { key: 'sort' as const, value: sort, label: '--sort' }];
	const config = resolveConfig({ saved, profile: stringFlag(args, 'profile'), overrides: all });
	config.notes.unshift(...notes);
	const valueProblem =
		saved !== null && saved.value !== null && !isPlainObject(saved.value) ? 'not a JSON object' : null;
	return { ...config, settingsFileFound, settingsFileProblem: settingsFileProblem ?? valueProblem };
}

/** A JSON object (not an array, not null): the only shape of settings the plugin saves. */
function isPlainObject(value: unknown): boolean {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
