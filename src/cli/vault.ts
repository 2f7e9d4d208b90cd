import { resolve } from 'node:path';
import type { NoteSource } from '../core/port';
import { openVault, VaultError } from '../node/vault-source';
import { stringFlag, type ParsedArgs } from './args';
import type { CommandIO } from './command';

/** Open the vault named by `--vault` (default: the working directory); on failure print why and return null. */
export async function openVaultForCli(args: ParsedArgs, io: CommandIO): Promise<NoteSource | null> {
	const path = resolve(io.cwd, stringFlag(args, 'vault') ?? '.');
	try {
		return await openVault(path);
	} catch (error) {
		if (error instanceof VaultError) {
			io.stderr(`vault-query: ${error.message}`);
			return null;
		}
		throw error;
	}
}
