import type { CliConfig } from '../config';
import { PROFILES } from '../../core/config/profiles';
import { boolFlag, positionals } from '../args';
import { EXIT, type Command } from '../command';
import { DATA_JSON } from '../config';
import { openCliVault } from '../vault';

/** A setting's value on one line. */
function shown(value: unknown): string {
	if (Array.isArray(value))
		return value.length === 0
			? '(none)'
			: value.map((v) => (Array.isArray(v) ? v.join(' + ') : String(v))).join(', ');
	if (value === '') return '(none)';
	return String(value);
}

/** What became of the plugin's settings file: read, not used (and why), or absent. */
function settingsFileState(config: CliConfig): string {
	if (!config.settingsFileFound) return 'not present: defaults apply';
	return config.settingsFileProblem === null ? 'read' : `not used: ${config.settingsFileProblem}; defaults apply`;
}

/** The readable listing: one setting a line, its value and where it came from. */
function renderConfig(vaultPath: string, file: string, config: CliConfig): string {
	const rows = Object.entries(config.settings).map(([key, value]): [string, string, string] => [
		key,
		shown(value),
		config.origins[key as keyof typeof config.origins],
	]);
	const keyWidth = Math.max(...rows.map((r) => r[0].length));
	const valueWidth = Math.min(60, Math.max(...rows.map((r) => r[1].length)));
	const profile = config.settings.profile === '' ? null : PROFILES[config.settings.profile];
	const lines = [
		`Vault: ${vaultPath}`,
		`Settings file: ${file} (${settingsFileState(config)})`,
		`Profile: ${profile ? `${config.settings.profile} — ${profile.description}` : "none (Obsidian's rules only)"}`,
		'',
		...rows.map(([key, value, origin]) => `  ${key.padEnd(keyWidth)}  ${value.padEnd(valueWidth)}  [${origin}]`),
	];
	if (config.notes.length > 0) lines.push('', 'Notes:', ...config.notes.map((n) => `  - ${n}`));
	return lines.join('\n');
}

/** `vault-query config`: the effective settings of both faces and where each came from. */
export const configCommand: Command = {
	name: 'config',
	summary: "the effective settings (defaults, profile, the plugin's data.json, flags) and where each came from",
	usage: '',
	examples: [
		'vault-query config',
		'vault-query config --profile team-folders --json',
		'vault-query config --config-dir .obsidian-mobile',
	],
	flags: {
		sort: { kind: 'string', value: 'ORDER', help: 'show the settings with this sort order (path, mtime, title)' },
	},
	check: (args) => void positionals(args, []),
	run: async (args, io) => {
		const opened = await openCliVault(args, io);
		const { source, config } = opened;
		const file = `${source.configDir}/${DATA_JSON}`;
		if (boolFlag(args, 'json')) {
			io.stdout(
				JSON.stringify(
					{
						status: 'success',
						vault_path: source.vaultPath,
						settings_file: {
							path: file,
							found: config.settingsFileFound,
							used: config.settingsFileFound && config.settingsFileProblem === null,
							problem: config.settingsFileProblem,
						},
						settings: config.settings,
						origins: config.origins,
						notes: config.notes,
					},
					null,
					2,
				),
			);
		} else {
			io.stdout(renderConfig(source.vaultPath, file, config));
		}
		return EXIT.results;
	},
};
