import { resolve } from 'node:path';
import type { SettingKey } from '../core/config/resolve';
import { engineConfigOf, type PluginSettings } from '../core/config/settings';
import { VaultEngine, type EngineConfig } from '../core/engine/engine';
import type { NoteSource } from '../core/port';
import { buildStamp } from '../node/snapshot/build-stamp';
import { recordBuild } from '../node/snapshot/build-log';
import { FileSnapshotStore } from '../node/snapshot/file-store';
import { indexPartsOf, type IndexParts } from '../node/snapshot/index-parts';
import { openCachedVault, type CachedVault, type SnapshotReport } from '../node/snapshot/open-cached';
import {
	assertVaultFolder,
	DEFAULT_CONFIG_DIR,
	openVault,
	VaultError,
	type OpenVaultOptions,
} from '../node/vault-source';
import { realpath } from 'node:fs/promises';
import { boolFlag, listFlag, numberFlag, stringFlag, type FlagSpec, type ParsedArgs } from './args';
import { CommandFailure, type CommandIO, type WarmLoan } from './command';
import { checkSettingsFlags, loadCliConfig, type CliConfig } from './config';
import { ProgressLine } from './progress';

/** The tool identity snapshots are tied to (see buildStamp). */
export const TOOL_STAMP = buildStamp(VAULT_QUERY_VERSION);

/** One line on what the snapshot did, for `--verbose`. */
export function describeSnapshot(report: SnapshotReport): string {
	const what =
		report.state === 'warm'
			? 'index snapshot used as saved'
			: report.state === 'refreshed'
				? `index snapshot refreshed (${report.reread} notes re-read, ${report.removed} removed)`
				: `index snapshot built (${report.notes} notes)`;
	return `vault-query: ${what} in ${Math.round(report.ms)} ms${report.savedBytes > 0 ? `, saved ${(report.savedBytes / 1e6).toFixed(1)} MB` : ''}`;
}

/** The config folder (`--config-dir`) and the walk and size bounds the flags ask for. */
export function openOptionsFrom(args: ParsedArgs): OpenVaultOptions {
	const totalMb = numberFlag(args, 'max-total-mb');
	return {
		configDir: stringFlag(args, 'config-dir'),
		maxFiles: numberFlag(args, 'max-files'),
		maxDepth: numberFlag(args, 'max-depth'),
		maxTotalBytes: totalMb === undefined ? undefined : totalMb * 1024 * 1024,
		allowAnyFolder: boolFlag(args, 'allow-any-folder'),
	};
}

/**
 * A vault opened for one call, before its settings are known: the source, the engine a
 * configuration makes over it, and what to save once the command has answered.
 */
interface OpenedSource {
	source: NoteSource;
	engine(config: EngineConfig): VaultEngine;
	/** Saves the snapshot and the index parts the engine built (null: nothing to save). */
	after: ((engine: VaultEngine | null) => Promise<void>) | null;
}

/** A source answered from the server's warm vault: its engine when the settings are the server's. */
function lent(source: NoteSource, loan: WarmLoan): OpenedSource {
	return { source, engine: (config) => loan.engine(source, config) ?? new VaultEngine(source, config), after: null };
}

/** A source read whole (`--no-cache`): a fresh engine, nothing saved. */
function unsaved(source: NoteSource): OpenedSource {
	return { source, engine: (config) => new VaultEngine(source, config), after: null };
}

/**
 * The vault at `path`: lent by the server, read whole with `--no-cache`, or through its snapshot
 * in the user's cache folder, whose saving (and the index parts') is left until after the answer.
 * Throws VaultError when the folder cannot be opened.
 */
async function openSource(path: string, args: ParsedArgs, io: CommandIO): Promise<OpenedSource> {
	const options = openOptionsFrom(args);
	const verbose = boolFlag(args, 'verbose');
	if (boolFlag(args, 'no-cache')) {
		const source = await openVault(path, options);
		recordBuild(source.vaultPath, source.listNotes().length);
		return unsaved(source);
	}
	const loan = io.warm;
	const warm = loan?.source(path, options) ?? null;
	if (warm !== null && loan) {
		if (verbose) io.stderr(loan.line);
		return lent(warm, loan);
	}
	const store = new FileSnapshotStore();
	const line = io.progress
		? new ProgressLine(io.progress, !boolFlag(args, 'json') && !boolFlag(args, 'quiet'))
		: null;
	let opened: CachedVault;
	try {
		opened = await openCachedVault(path, {
			...options,
			store,
			tool: TOOL_STAMP,
			save: 'later',
			readPiecemeal: true,
			...(line
				? { progress: (read: number, total: number) => line.update('reading the vault', read, total) }
				: {}),
		});
	} finally {
		line?.end();
	}
	if (opened.report.state === 'built') recordBuild(opened.source.vaultPath, opened.report.notes);
	const parts = indexPartsOf(opened, store, TOOL_STAMP, true);
	const engine = (config: EngineConfig): VaultEngine => {
		const made = new VaultEngine(opened.source, config);
		made.saved = parts;
		return made;
	};
	return { source: opened.source, engine, after: (made) => saveAfterAnswer(opened, parts, made, args, io) };
}

/** Saves what an open through the snapshot left to save (see openSource); each failure is one warning, `--verbose` says what was done. */
async function saveAfterAnswer(
	opened: CachedVault,
	parts: IndexParts,
	engine: VaultEngine | null,
	args: ParsedArgs,
	io: CommandIO,
): Promise<void> {
	const { source, report } = opened;
	const verbose = boolFlag(args, 'verbose');
	await opened.saveLater?.();
	const partError = engine ? await parts.save(engine) : null;
	if (report.saveError !== null)
		io.stderr(
			`vault-query: warning: the index snapshot could not be saved (${report.saveError}); every call reads the whole vault`,
		);
	if (partError !== null && report.saveError === null) io.stderr(`vault-query: warning: ${partError}`); // one cause, one warning
	if (verbose && report.rebuildReason !== null)
		io.stderr(`vault-query: ${report.rebuildReason}; rebuilt from the vault`);
	if (verbose)
		for (const line of [describeSnapshot(report), ...parts.report.notes.map((n) => `vault-query: ${n}`)])
			io.stderr(line);
	const damaged = source.damaged.size;
	if (verbose && damaged > 0)
		io.stderr(
			`vault-query: saved metadata of ${damaged} note${damaged === 1 ? '' : 's'} failed its check; read from the vault instead, and the snapshot saved again`,
		);
}

/** Flags that configure the engine itself, for every command that reads links or ranks. */
export const ENGINE_FLAGS = {
	'links-key': {
		kind: 'string',
		value: 'KEY',
		help: 'frontmatter key of bare note names that count as links (default "links", or the setting)',
	},
	'date-fields': {
		kind: 'list',
		value: 'A,B',
		help: "properties that date a note, first set wins; else the file's modification time (default: date, created, updated, modified, date created, date modified, last_verified, or the setting)",
	},
} satisfies Record<string, FlagSpec>;

/** A flag's value that overrides a setting. */
export interface SettingOverride {
	key: SettingKey;
	value: unknown;
	label: string;
}

/** `-C/--context N` of grep and text-search: lines of context around each match, GNU grep's meaning. */
export const CONTEXT_FLAG: FlagSpec = {
	kind: 'number',
	value: 'N',
	short: 'C',
	range: [0, 1000],
	help: 'lines of context before and after each match (default 2, or the setting); overlapping context is printed once',
};

/** The settings the engine flags override (`--sort` and `--profile` are read with the settings). */
export function engineOverridesFrom(args: ParsedArgs): SettingOverride[] {
	const linksKey = stringFlag(args, 'links-key');
	const context = numberFlag(args, 'context');
	const overrides: SettingOverride[] =
		linksKey === undefined ? [] : [{ key: 'linksKey', value: linksKey, label: '--links-key' }];
	if (context !== undefined) overrides.push({ key: 'contextLines', value: context, label: '--context' });
	const dateFields = listFlag(args, 'date-fields');
	if (dateFields.length > 0) overrides.push({ key: 'dateFields', value: dateFields, label: '--date-fields' });
	return overrides;
}

/**
 * The effective settings for the `--vault` folder: its data.json (in `--config-dir`), the profile
 * and the flags; notes about them go to stderr. Reads nothing but that one file.
 */
export async function settingsFor(
	args: ParsedArgs,
	io: CommandIO,
	vaultPath: string = vaultPathOf(args, io),
): Promise<CliConfig> {
	const config = await loadCliConfig(
		{ vaultPath, configDir: stringFlag(args, 'config-dir') ?? DEFAULT_CONFIG_DIR },
		args,
		engineOverridesFrom(args),
	);
	for (const note of config.notes) {
		io.stderr(`vault-query: settings: ${note}`);
		io.settingsNote?.(note);
	}
	return config;
}

/** The engine configuration for the `--vault` folder, for servers that open the vault themselves. */
export async function engineConfigFrom(args: ParsedArgs, io: CommandIO): Promise<EngineConfig> {
	checkSettingsFlags(args);
	return engineConfigOf((await settingsFor(args, io)).settings);
}

/** The vault folder `--vault` names (default: the working directory), resolved against the working directory. */
export function vaultPathOf(args: ParsedArgs, io: CommandIO): string {
	return resolve(io.cwd, stringFlag(args, 'vault') ?? '.');
}

/** The `--vault` folder and its real path (the key of its snapshot and server); a folder that cannot be opened is a CommandFailure saying why. */
export async function vaultKeyOf(args: ParsedArgs, io: CommandIO): Promise<{ path: string; key: string }> {
	const path = vaultPathOf(args, io);
	try {
		await assertVaultFolder(path);
	} catch (error) {
		if (error instanceof VaultError) throw new CommandFailure(error.message);
		throw error;
	}
	return { path, key: await realpath(path) };
}

/** A vault opened for one CLI call: its source, its effective settings, and the engine over it configured by them. */
export interface CliVault {
	source: NoteSource;
	settings: PluginSettings;
	config: CliConfig;
	engine: VaultEngine;
}

/**
 * Opens the `--vault` folder for one call and reads its settings: the engine starts from the
 * indexes saved by earlier calls (or is the server's warm one), and what the open leaves to save
 * is saved once the command has answered (`io.afterAnswer`; at once without it). Throws
 * VaultError when the folder cannot be opened (see {@link openCliVault}).
 */
export async function openCliVaultOrThrow(args: ParsedArgs, io: CommandIO): Promise<CliVault> {
	checkSettingsFlags(args); // why: a bad flag is a usage error before anything is read
	const opened = await openSource(vaultPathOf(args, io), args, io);
	const config = await settingsFor(args, io, opened.source.vaultPath);
	const engine = opened.engine(engineConfigOf(config.settings));
	const after = opened.after;
	if (after !== null) {
		const task = (): Promise<void> => after(engine);
		if (io.afterAnswer) io.afterAnswer(task);
		else await task();
	}
	return { source: opened.source, settings: config.settings, config, engine };
}

/** {@link openCliVaultOrThrow}, a folder that cannot be opened being a `CommandFailure` naming it. */
export async function openCliVault(args: ParsedArgs, io: CommandIO): Promise<CliVault> {
	try {
		return await openCliVaultOrThrow(args, io);
	} catch (error) {
		if (error instanceof VaultError) throw new CommandFailure(error.message);
		throw error;
	}
}
