import { resolve } from 'node:path';
import { VaultEngine, type EngineConfig } from '../core/engine/engine';
import type { NoteSource } from '../core/port';
import { buildStamp } from '../node/snapshot/build-stamp';
import { FileSnapshotStore } from '../node/snapshot/file-store';
import { openCachedVault, type SnapshotReport } from '../node/snapshot/open-cached';
import { openVault, VaultError, type OpenVaultOptions } from '../node/vault-source';
import { boolFlag, numberFlag, stringFlag, type FlagSpec, type ParsedArgs } from './args';
import { CommandFailure, type CommandIO } from './command';
import { VERSION } from './version';

/** The tool identity snapshots are tied to (see buildStamp). */
export const TOOL_STAMP = buildStamp(VERSION);

/** One line on what the snapshot did, for `--verbose`. */
export function describeSnapshot(report: SnapshotReport): string {
	const what = report.state === 'warm' ? 'index snapshot used as saved' : report.state === 'refreshed' ? `index snapshot refreshed (${report.reread} notes re-read, ${report.removed} removed)` : `index snapshot built (${report.notes} notes)`;
	return `vault-query: ${what} in ${Math.round(report.ms)} ms${report.savedBytes > 0 ? `, saved ${(report.savedBytes / 1e6).toFixed(1)} MB` : ''}`;
}

/** The walk and size bounds the flags ask for. */
export function openOptionsFrom(args: ParsedArgs): OpenVaultOptions {
	const totalMb = numberFlag(args, 'max-total-mb');
	return {
		maxFiles: numberFlag(args, 'max-files'),
		maxDepth: numberFlag(args, 'max-depth'),
		maxTotalBytes: totalMb === undefined ? undefined : totalMb * 1024 * 1024,
		allowAnyFolder: boolFlag(args, 'allow-any-folder'),
	};
}

/**
 * The vault at `path` as a NoteSource: through its snapshot in the user's cache folder, or read
 * whole with `--no-cache`. Throws VaultError when the folder cannot be opened. A snapshot that
 * cannot be saved costs one warning; `--verbose` says what the snapshot did and why one was rebuilt.
 */
export async function openSource(path: string, args: ParsedArgs, io: CommandIO): Promise<NoteSource> {
	if (boolFlag(args, 'no-cache')) return openVault(path, openOptionsFrom(args));
	const { source, report } = await openCachedVault(path, { ...openOptionsFrom(args), store: new FileSnapshotStore(), tool: TOOL_STAMP });
	const verbose = boolFlag(args, 'verbose');
	if (report.saveError !== null) io.stderr(`vault-query: warning: the index snapshot could not be saved (${report.saveError}); every call reads the whole vault`);
	if (verbose && report.rebuildReason !== null) io.stderr(`vault-query: ${report.rebuildReason}; rebuilt from the vault`);
	if (verbose) io.stderr(describeSnapshot(report));
	return source;
}

/** Flags that configure the engine itself, for every command that reads links or ranks. */
export const ENGINE_FLAGS: Record<string, FlagSpec> = {
	'links-key': { kind: 'string', value: 'KEY', help: 'frontmatter key of bare note names that count as links (default "links")' },
};

/** The engine configuration the command's flags ask for (defaults otherwise). */
export function engineConfigFrom(args: ParsedArgs): EngineConfig {
	const linksKey = stringFlag(args, 'links-key');
	return linksKey === undefined ? {} : { settings: { linksKey } };
}

/** The vault folder `--vault` names (default: the working directory), resolved against the working directory. */
export function vaultPathOf(args: ParsedArgs, io: CommandIO): string {
	return resolve(io.cwd, stringFlag(args, 'vault') ?? '.');
}

/** Open the vault named by `--vault`; a path that is not a readable folder is a `CommandFailure` naming it. */
export async function openVaultForCli(args: ParsedArgs, io: CommandIO): Promise<NoteSource> {
	try {
		return await openSource(vaultPathOf(args, io), args, io);
	} catch (error) {
		if (error instanceof VaultError) throw new CommandFailure(error.message);
		throw error;
	}
}

/** The engine over the `--vault` folder, configured from the flags (a vault that cannot be opened is a `CommandFailure`). */
export async function openEngineForCli(args: ParsedArgs, io: CommandIO, config: EngineConfig = engineConfigFrom(args)): Promise<VaultEngine> {
	return new VaultEngine(await openVaultForCli(args, io), config);
}
