import { resolve } from 'node:path';
import { VaultEngine, type EngineConfig } from '../core/engine/engine';
import type { NoteSource } from '../core/port';
import { openVault, VaultError } from '../node/vault-source';
import { boolFlag, numberFlag, stringFlag, type FlagSpec, type ParsedArgs } from './args';
import type { CommandIO } from './command';

/** Flags that configure the engine itself, for every command that reads links or ranks. */
export const ENGINE_FLAGS: Record<string, FlagSpec> = {
	'links-key': { kind: 'string', value: 'KEY', help: 'frontmatter key of bare note names that count as links (default "links")' },
};

/** The engine configuration the command's flags ask for (defaults otherwise). */
export function engineConfigFrom(args: ParsedArgs): EngineConfig {
	const linksKey = stringFlag(args, 'links-key');
	return linksKey === undefined ? {} : { settings: { linksKey } };
}

/** Open the vault named by `--vault` (default: the working directory); on failure print why and return null. */
export async function openVaultForCli(args: ParsedArgs, io: CommandIO): Promise<NoteSource | null> {
	const path = resolve(io.cwd, stringFlag(args, 'vault') ?? '.');
	try {
		const totalMb = numberFlag(args, 'max-total-mb');
		return await openVault(path, {
			maxFiles: numberFlag(args, 'max-files'),
			maxDepth: numberFlag(args, 'max-depth'),
			maxTotalBytes: totalMb === undefined ? undefined : totalMb * 1024 * 1024,
			allowAnyFolder: boolFlag(args, 'allow-any-folder'),
		});
	} catch (error) {
		if (error instanceof VaultError) {
			io.stderr(`vault-query: ${error.message}`);
			return null;
		}
		throw error;
	}
}

/** The engine over the `--vault` folder, configured from the flags; null (after saying why) when the vault cannot be opened. */
export async function openEngineForCli(args: ParsedArgs, io: CommandIO, config: EngineConfig = engineConfigFrom(args)): Promise<VaultEngine | null> {
	const source = await openVaultForCli(args, io);
	return source === null ? null : new VaultEngine(source, config);
}
