import { resolve } from 'node:path';
import { DEFAULT_MAX_BYTES } from '../../mcp/bound';
import { DEFAULT_CONFIG_DIR, VaultError } from '../../node/vault-source';
import { warmOpener } from '../../warm/opener';
import { boolFlag, numberFlag, positionals, stringFlag, UsageError, type ParsedArgs } from '../args';
import { CommandFailure, EXIT, type Command, type CommandIO } from '../command';
import { MCP_CLIENTS, printConfig, type McpClient } from '../mcp-config';
import { closest } from '../../core/suggest';
import { realpathSync } from 'node:fs';
import { engineConfigFrom, ENGINE_FLAGS, openOptionsFrom, TOOL_STAMP, vaultKeyOf } from '../vault';
import { exposeCollection } from '../../warm/collect';

/** The CLI's entry script as the client must start it: the real path of the script this process runs (an `npm link`ed bin resolves to the clone's dist/cli.mjs). */
function entryScript(): string {
	const script = process.argv[1] ?? '';
	try {
		return realpathSync(script);
	} catch {
		return resolve(script);
	}
}

/** `--print-config CLIENT`: the snippet on stdout, where it goes on stderr (see mcp-config.ts). */
async function printClientConfig(client: string, args: ParsedArgs, io: CommandIO): Promise<number> {
	if (!(MCP_CLIENTS as readonly string[]).includes(client)) {
		const near = closest(client, [...MCP_CLIENTS]);
		throw new UsageError(
			`--print-config: unknown client "${client}"${near.length > 0 ? `; did you mean "${near[0]}"?` : ''} (one of ${MCP_CLIENTS.join(', ')})`,
		);
	}
	const { key } = await vaultKeyOf(args, io); // the folder must exist: the snippet names its real, absolute path
	const passed: string[] = [];
	for (const flag of ['config-dir', 'profile', 'max-bytes', 'links-key']) {
		const value = args.flags[flag];
		if (typeof value === 'string' || typeof value === 'number') passed.push(`--${flag}`, String(value));
	}
	const printed = printConfig(client as McpClient, {
		name: stringFlag(args, 'name') ?? 'vault-query',
		command: process.execPath,
		args: [entryScript(), 'mcp', '--vault', key, ...passed],
	});
	io.stdout(printed.snippet);
	io.stderr(`vault-query mcp: ${printed.where}`);
	return EXIT.results;
}

/** `vault-query mcp [--vault PATH] [--max-bytes N]`: an MCP server on stdio over a warm, watched vault. */
export const mcpCommand: Command = {
	name: 'mcp',
	summary:
		'serve the vault to AI agents over the Model Context Protocol (stdio): search, query, read, pack, note, status',
	usage: '[--vault PATH] [--max-bytes N] [--print-config CLIENT]',
	examples: [
		'vault-query mcp --vault ~/Notes',
		'vault-query mcp --vault ~/Notes --print-config claude-desktop',
		'vault-query mcp --vault ~/Notes --print-config codex --name notes',
	],
	flags: {
		...ENGINE_FLAGS,
		'print-config': {
			kind: 'string',
			value: 'CLIENT',
			help: `print the snippet that registers this server with a client (${MCP_CLIENTS.join(', ')}), with absolute paths, and exit`,
		},
		name: {
			kind: 'string',
			value: 'NAME',
			help: "the server's name in --print-config's snippet (default vault-query)",
		},
		'max-bytes': {
			kind: 'number',
			value: 'N',
			help: `largest response in bytes; longer answers are cut at a whole item (default ${DEFAULT_MAX_BYTES})`,
		},
	},
	run: async (args, io) => {
		positionals(args, []);
		const client = stringFlag(args, 'print-config');
		if (client !== undefined) return printClientConfig(client, args, io);
		if (stringFlag(args, 'name') !== undefined)
			throw new UsageError("--name names the server in --print-config's snippet; give --print-config");
		const maxBytes = numberFlag(args, 'max-bytes') ?? DEFAULT_MAX_BYTES;
		if (maxBytes < 4096)
			throw new UsageError(`--max-bytes must be at least 4096 (one result needs room), got ${maxBytes}`);
		const vaultPath = resolve(io.cwd, stringFlag(args, 'vault') ?? '.');
		// The folder is checked before the protocol starts: a wrong --vault is exit 2 with its reason, not a server that fails every call.
		await vaultKeyOf(args, io);
		let reading: ((read: number, total: number) => void) | null = null;
		const open = warmOpener(
			vaultPath,
			openOptionsFrom(args),
			boolFlag(args, 'no-cache'),
			TOOL_STAMP,
			(line) => io.stderr(`vault-query mcp: ${line}`),
			(read, total) => reading?.(read, total),
		);
		const config = await engineConfigFrom(args, io); // the plugin's data.json and the profile, like every command
		// Loaded here, not at the top: the MCP SDK and zod are half the CLI's code, and no other command needs them.
		const { runMcpServer } = await import('../../mcp/run');
		// A client starts the server with no Node flags: the full collections the start's phases ask for are made here.
		if (io.ownProcess === true) exposeCollection();
		try {
			return await runMcpServer({
				open,
				vaultPath,
				configDir: stringFlag(args, 'config-dir') ?? DEFAULT_CONFIG_DIR,
				maxBytes,
				version: VAULT_QUERY_VERSION,
				config,
				log: (line) => io.stderr(`vault-query mcp: ${line}`),
				onReading: (sink) => (reading = sink),
			});
		} catch (error) {
			// Before the server starts stdout is still ours: runCli reports it, as JSON too with --json.
			if (error instanceof VaultError) throw new CommandFailure(error.message);
			throw error;
		}
	},
};
