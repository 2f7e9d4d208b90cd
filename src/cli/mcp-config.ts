/**
 * `vault-query mcp --print-config <client>`: the exact snippet that registers this vault's MCP
 * server with a common client, with absolute paths — the Node binary and the CLI's entry script
 * rather than a command name, because desktop apps start servers without the user's shell PATH.
 * Each format follows its client's documented configuration:
 * - Claude Code: `claude mcp add --transport stdio <name> -- <command> [args…]`;
 * - Claude Desktop and Cursor: `{"mcpServers": {"<name>": {"command", "args"}}}`;
 * - VS Code: `{"servers": {"<name>": {"type": "stdio", "command", "args"}}}` (.vscode/mcp.json);
 * - Codex CLI: a `[mcp_servers.<name>]` table with `command` and `args` (~/.codex/config.toml).
 */

/** The clients `--print-config` knows, as the flag takes them. */
export const MCP_CLIENTS = ['claude-code', 'claude-desktop', 'cursor', 'vscode', 'codex'] as const;

/** One of {@link MCP_CLIENTS}. */
export type McpClient = (typeof MCP_CLIENTS)[number];

/** How the client starts the server: an absolute command and its arguments. */
export interface ServerLaunch {
	/** The server's name in the client's list. */
	name: string;
	command: string;
	args: string[];
}

/** A snippet to paste (stdout) and where it goes (stderr: a note for the person, not part of the snippet). */
export interface PrintedConfig {
	snippet: string;
	where: string;
}

/** A word as a POSIX shell reads it back unchanged: bare when it holds only safe characters, else single-quoted. */
export function shellWord(word: string): string {
	return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A TOML basic string (JSON's escapes are TOML's for the characters a path holds). */
function tomlString(text: string): string {
	return JSON.stringify(text);
}

/** A TOML bare key when `name` can be one, else a quoted key. */
function tomlKey(name: string): string {
	return /^[A-Za-z0-9_-]+$/.test(name) ? name : tomlString(name);
}

/** The snippet for `client` (see the module comment). */
export function printConfig(client: McpClient, launch: ServerLaunch): PrintedConfig {
	const { name, command, args } = launch;
	const entry = { command, args };
	switch (client) {
		case 'claude-code':
			return {
				snippet: ['claude', 'mcp', 'add', '--transport', 'stdio', name, '--', command, ...args]
					.map(shellWord)
					.join(' '),
				where: 'Run this in a shell; add --scope user before the name to have it in every project.',
			};
		case 'claude-desktop':
			return {
				snippet: JSON.stringify({ mcpServers: { [name]: entry } }, null, 2),
				where: 'Merge this into claude_desktop_config.json (Settings › Developer › Edit Config: ~/Library/Application Support/Claude/ on macOS, %APPDATA%\\Claude\\ on Windows), then restart Claude Desktop.',
			};
		case 'cursor':
			return {
				snippet: JSON.stringify({ mcpServers: { [name]: entry } }, null, 2),
				where: 'Merge this into ~/.cursor/mcp.json (every project) or .cursor/mcp.json in a project.',
			};
		case 'vscode':
			return {
				snippet: JSON.stringify({ servers: { [name]: { type: 'stdio', ...entry } } }, null, 2),
				where: 'Merge this into .vscode/mcp.json in a workspace (or the user mcp.json: MCP: Open User Configuration).',
			};
		case 'codex':
			return {
				snippet: [
					`[mcp_servers.${tomlKey(name)}]`,
					`command = ${tomlString(command)}`,
					`args = [${args.map(tomlString).join(', ')}]`,
				].join('\n'),
				where: 'Add this to ~/.codex/config.toml (or .codex/config.toml in a trusted project).',
			};
	}
}
