import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashTree } from '../helpers/hash';
import { EXAMPLE_VAULT, REPO } from '../helpers/paths';
import { BIN, call } from './client';

const run = promisify(execFile);

/** Words of a POSIX command line made of bare and single-quoted words (what --print-config claude-code prints). */
function shellWords(line: string): string[] {
	return [...line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)].map((m) => (m[1] ?? m[2])!.replace(/'\\''/g, "'"));
}

/**
 * The value of a TOML document made of one table header, then `key = value` lines whose values
 * are basic strings or arrays of them (TOML writes those as JSON does); anything else fails.
 */
function tomlTable(text: string): Record<string, Record<string, Record<string, unknown>>> {
	const [header, ...lines] = text.split('\n');
	const table = /^\[([A-Za-z0-9_]+)\.([A-Za-z0-9_-]+)\]$/.exec(header!);
	if (table === null) throw new Error(`not a TOML table header: ${header}`);
	const entries = lines.map((line) => {
		const pair = /^([A-Za-z0-9_-]+) = (".*"|\[.*\])$/.exec(line);
		if (pair === null) throw new Error(`not a TOML key = value line: ${line}`);
		return [pair[1], JSON.parse(pair[2]!) as unknown];
	});
	return { [table[1]!]: { [table[2]!]: Object.fromEntries(entries) as Record<string, unknown> } };
}

/** `node dist/cli.mjs mcp --print-config <client>` run from `cwd`: the snippet on stdout. */
async function printed(client: string, vault: string, cwd: string, bin: string[] = [process.execPath, BIN]) {
	const [command, ...args] = bin;
	const out = await run(command!, [...args, 'mcp', '--vault', vault, '--print-config', client], { cwd });
	return out.stdout.trimEnd();
}

/** Connects the official client to the server as a client would start it, from `cwd`; returns the search tool's first hit. */
async function firstHit(command: string, args: string[], cwd: string, cache: string): Promise<string> {
	const client = new Client({ name: 'setup-test', version: '1.0.0' });
	await client.connect(
		new StdioClientTransport({ command, args, cwd, env: { VAULT_QUERY_CACHE_DIR: cache }, stderr: 'pipe' }),
	);
	try {
		const { tools } = await client.listTools();
		expect(tools.map((t) => t.name)).toContain('search');
		const hit = await call(client, 'search', { query: 'valuation', limit: 1 });
		return String((hit.json.results ?? [])[0]?.path);
	} finally {
		await client.close();
	}
}

describe('the documented MCP set-up, run from a directory outside the clone', () => {
	let root: string;
	let vault: string;
	let elsewhere: string;
	let cache: string;
	let before: string;

	beforeAll(() => {
		root = realpathSync(mkdtempSync(join(tmpdir(), 'vq-setup-')));
		vault = join(root, 'My Notes');
		elsewhere = join(root, 'elsewhere');
		cache = join(root, 'cache');
		cpSync(EXAMPLE_VAULT, vault, { recursive: true });
		mkdirSync(elsewhere);
		before = hashTree(vault);
	});

	afterAll(() => {
		expect(hashTree(vault), 'the vault is byte-identical').toBe(before);
		rmSync(root, { recursive: true, force: true });
	});

	it('--print-config prints each client’s documented format with absolute paths to node, the CLI and the vault', async () => {
		const expected = { command: process.execPath, args: [BIN, 'mcp', '--vault', vault] };
		const desktop = JSON.parse(await printed('claude-desktop', vault, elsewhere)) as Record<string, unknown>;
		expect(desktop).toEqual({ mcpServers: { 'vault-query': expected } });
		const cursor = JSON.parse(await printed('cursor', vault, elsewhere)) as Record<string, unknown>;
		expect(cursor).toEqual({ mcpServers: { 'vault-query': expected } });
		const vscode = JSON.parse(await printed('vscode', vault, elsewhere)) as Record<string, unknown>;
		expect(vscode).toEqual({ servers: { 'vault-query': { type: 'stdio', ...expected } } });
		const codex = tomlTable(await printed('codex', vault, elsewhere));
		expect(codex).toEqual({ mcp_servers: { 'vault-query': expected } });
		const claude = shellWords(await printed('claude-code', vault, elsewhere));
		expect(claude).toEqual([
			'claude',
			'mcp',
			'add',
			'--transport',
			'stdio',
			'vault-query',
			'--',
			expected.command,
			...expected.args,
		]);
	});

	it('the printed snippet starts a server the official client connects to and searches, from another folder', async () => {
		const snippet = JSON.parse(await printed('claude-desktop', vault, elsewhere)) as {
			mcpServers: Record<string, { command: string; args: string[] }>;
		};
		const { command, args } = snippet.mcpServers['vault-query']!;
		expect(await firstHit(command, args, elsewhere, cache)).toBe('skill-lab/dcf-valuation.md');
	});

	it('npm install -g <clone> into a private prefix gives a `vault-query` that serves MCP and prints its own set-up', async () => {
		const prefix = join(root, 'prefix');
		// --offline: the clone is installed as a link to this folder; nothing is fetched.
		await run('npm', ['install', '-g', REPO, '--prefix', prefix, '--offline', '--no-audit', '--no-fund'], {
			cwd: elsewhere,
			timeout: 120_000,
		});
		const bin = join(prefix, 'bin', 'vault-query');
		expect(await firstHit(bin, ['mcp', '--vault', vault], elsewhere, cache)).toBe('skill-lab/dcf-valuation.md');
		// Its snippet names the real script, so it keeps working whatever PATH the client starts with.
		const codex = tomlTable(await printed('codex', vault, elsewhere, [bin]));
		expect((codex.mcp_servers!['vault-query']!.args as string[])[0]).toBe(realpathSync(BIN));
	}, 180_000);

	it('an unknown client is a usage error naming the clients', async () => {
		const failed = await run(process.execPath, [BIN, 'mcp', '--print-config', 'claud', '--vault', vault], {
			cwd: elsewhere,
		}).catch((error: { code: number; stderr: string }) => error);
		expect('code' in failed && failed.code).toBe(2);
		expect((failed as { stderr: string }).stderr).toMatch(/did you mean "claude-code"\?.*claude-desktop, cursor/);
	});
});
