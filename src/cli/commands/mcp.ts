import { resolve } from 'node:path';
import { DEFAULT_MAX_BYTES } from '../../mcp/bound';
import { DEFAULT_CONFIG_DIR, VaultError } from '../../node/vault-source';
import { warmOpener } from '../../warm/opener';
import { boolFlag, numberFlag, positionals, stringFlag, UsageError } from '../args';
import { CommandFailure, type Command } from '../command';
import { engineConfigFrom, ENGINE_FLAGS, openOptionsFrom, TOOL_STAMP } from '../vault';

/** `vault-query mcp [--vault PATH] [--max-bytes N]`: an MCP server on stdio over a warm, watched vault. */
export const mcpCommand: Command = {
	name: 'mcp',
	summary:
		'serve the vault to AI agents over the Model Context Protocol (stdio): search, query, read, pack, note, status',
	usage: '[--vault PATH] [--max-bytes N]',
	examples: ['vault-query mcp --vault ~/Notes', 'claude mcp add vault -- vault-query mcp --vault ~/Notes'],
	flags: {
		...ENGINE_FLAGS,
		'max-bytes': {
			kind: 'number',
			value: 'N',
			help: `largest response in bytes; longer answers are cut at a whole item (default ${DEFAULT_MAX_BYTES})`,
		},
	},
	run: async (args, io) => {
		positionals(args, []);
		const maxBytes = numberFlag(args, 'max-bytes') ?? DEFAULT_MAX_BYTES;
		if (maxBytes < 4096)
			throw new UsageError(`--max-bytes must be at least 4096 (one result needs room), got ${maxBytes}`);
		const vaultPath = resolve(io.cwd, stringFlag(args, 'vault') ?? '.');
		const open = warmOpener(vaultPath, openOptionsFrom(args), boolFlag(args, 'no-cache'), TOOL_STAMP, (line) =>
			io.stderr(`vault-query mcp: ${line}`),
		);
		const config = await engineConfigFrom(args, io); // the plugin's data.json and the profile, like every command
		// Loaded here, not at the top: the MCP SDK and zod are half the CLI's code, and no other command needs them.
		const { runMcpServer } = await import('../../mcp/run');
		try {
			return await runMcpServer({
				open,
				vaultPath,
				configDir: stringFlag(args, 'config-dir') ?? DEFAULT_CONFIG_DIR,
				maxBytes,
				version: VAULT_QUERY_VERSION,
				config,
				log: (line) => io.stderr(`vault-query mcp: ${line}`),
			});
		} catch (error) {
			// Before the server starts stdout is still ours: runCli reports it, as JSON too with --json.
			if (error instanceof VaultError) throw new CommandFailure(error.message);
			throw error;
		}
	},
};
