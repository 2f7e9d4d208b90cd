import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { join } from 'node:path';
import { REPO } from '../helpers/paths';

/** The built CLI the MCP tests spawn, as a user's MCP client would. */
export const BIN = join(REPO, 'dist', 'cli.mjs');

/** A connected official MCP client over `vault-query mcp`, with the server's stderr captured. */
export interface Connected {
	client: Client;
	/** The client's transport (its child process, for tests that write raw lines or watch the exit). */
	transport: StdioClientTransport;
	stderr: () => string;
	close: () => Promise<void>;
}

/**
 * Spawn `node dist/cli.mjs mcp --vault <vault> [...extra]` and connect the official client SDK.
 * `mode: 'auto'` negotiates the current revision (2026-07-28); `'legacy'` speaks the 2025 handshake.
 */
export async function connect(
	vault: string,
	options: { mode?: 'auto' | 'legacy'; extra?: string[]; env?: Record<string, string> } = {},
): Promise<Connected> {
	const client = new Client(
		{ name: 'vault-query-test', version: '1.0.0' },
		{ versionNegotiation: { mode: options.mode ?? 'auto' } },
	);
	// The SDK passes on only a few variables (HOME, PATH…): hand over this test file's private snapshot cache, or the server would use the user's.
	const cache = process.env.VAULT_QUERY_CACHE_DIR;
	const env = { ...(cache === undefined ? {} : { VAULT_QUERY_CACHE_DIR: cache }), ...options.env };
	const transport = new StdioClientTransport({
		command: process.execPath,
		args: [BIN, 'mcp', '--vault', vault, ...(options.extra ?? [])],
		env,
		stderr: 'pipe',
	});
	let log = '';
	transport.stderr?.on('data', (chunk: Buffer) => {
		log += chunk.toString('utf8');
	});
	await client.connect(transport);
	return { client, transport, stderr: () => log, close: () => client.close() };
}

/** A tool call's text and structured content, typed loosely for assertions. */
export interface ToolOutcome {
	isError: boolean;
	text: string;
	json: Record<string, unknown> & {
		status?: string;
		results?: Record<string, unknown>[];
		error?: string;
		limitations?: string[];
	};
	bytes: number;
}

/** Call a tool and flatten the result for assertions. */
export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolOutcome> {
	const result = await client.callTool({ name, arguments: args });
	const content = (result.content ?? []) as { type: string; text?: string }[];
	const text = content
		.filter((c) => c.type === 'text')
		.map((c) => c.text ?? '')
		.join('\n');
	const json = (result.structuredContent ?? {}) as ToolOutcome['json'];
	return {
		isError: result.isError === true,
		text,
		json,
		bytes: Buffer.byteLength(JSON.stringify({ content, structuredContent: result.structuredContent }), 'utf8'),
	};
}
