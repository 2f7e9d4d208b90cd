import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli';
import { hashTree } from '../helpers/hash';
import { EXAMPLE_VAULT, REPO } from '../helpers/paths';
import { BIN, call, connect, type Connected } from './client';

const run = promisify(execFile);

describe('MCP server over stdio, driven by the official client SDK (examples/vault, read-only)', () => {
	let server: Connected;
	let before: string;

	beforeAll(async () => {
		before = hashTree(EXAMPLE_VAULT);
		server = await connect(EXAMPLE_VAULT);
	});

	afterAll(async () => {
		await server.close();
		expect(hashTree(EXAMPLE_VAULT), 'the vault is byte-identical after the session').toBe(before);
	});

	it('negotiates the current protocol revision, and the 2025 one for a legacy client', async () => {
		expect(server.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
		const legacy = await connect(EXAMPLE_VAULT, { mode: 'legacy' });
		try {
			expect(legacy.client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
			expect((await call(legacy.client, 'search', { query: 'valuation', limit: 1 })).json.results).toHaveLength(
				1,
			);
		} finally {
			await legacy.close();
		}
	});

	it('lists seven read-only tools with strict, described input schemas', async () => {
		const { tools } = await server.client.listTools();
		expect(tools.map((t) => t.name)).toEqual(['search', 'query', 'read', 'pack', 'note', 'base', 'status']);
		for (const tool of tools) {
			expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
			expect(tool.annotations?.destructiveHint, tool.name).toBe(false);
			expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(60);
			expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
			for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
				expect(
					(schema as { description?: string }).description,
					`${tool.name}.${name} has a description`,
				).toBeTruthy();
			}
		}
	});

	it('lists the handoff prompt and the note resource template', async () => {
		const { prompts } = await server.client.listPrompts();
		expect(prompts.map((p) => p.name)).toEqual(['handoff']);
		expect(prompts[0]!.arguments?.map((a) => a.name)).toEqual(['question', 'budget']);
		const { resourceTemplates } = await server.client.listResourceTemplates();
		expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['vault-query://note/{+path}']);
	});

	it('search answers with the JSON `vault-query search --json` prints, plus a short text listing', async () => {
		const out = await call(server.client, 'search', { query: 'valuation', limit: 3 });
		const printed = await cli(['search', 'valuation', '--limit', '3', '--json', '--vault', EXAMPLE_VAULT]);
		expect(out.isError).toBe(false);
		expect(out.json).toEqual(JSON.parse(printed.stdout));
		expect(out.text).toContain('1. skill-lab/dcf-valuation.md');
	});

	it('query answers all five structural types like the CLI', async () => {
		const tag = await call(server.client, 'query', { type: 'tag', tag: 'copilot' });
		expect(tag.json).toEqual(
			JSON.parse((await cli(['tag', 'copilot', '--json', '--vault', EXAMPLE_VAULT])).stdout),
		);
		const prop = await call(server.client, 'query', { type: 'prop', key: 'status', value: 'open' });
		expect(prop.json).toEqual(
			JSON.parse((await cli(['prop', 'status', 'open', '--json', '--vault', EXAMPLE_VAULT])).stdout),
		);
		const backlinks = await call(server.client, 'query', { type: 'backlinks', note: 'conventions' });
		expect(backlinks.json.results?.length).toBeGreaterThan(0);
		const links = await call(server.client, 'query', { type: 'links', note: 'Home' });
		expect(links.json.results?.[0]).toHaveProperty('linkpath');
		const grep = await call(server.client, 'query', { type: 'grep', pattern: 'discount rate' });
		expect(grep.json.results?.[0]).toHaveProperty('matches');
	});

	it("a grep of a word in most notes stops at its limit, says more match, and offset continues in the CLI's order", async () => {
		const all = JSON.parse(
			(await cli(['grep', 'the', '--limit', '500', '--json', '--vault', EXAMPLE_VAULT, '--no-cache'])).stdout,
		) as { matched: number; results: unknown[] };
		expect(all.matched).toBeGreaterThan(10);
		const first = await call(server.client, 'query', { type: 'grep', pattern: 'the', limit: 5 });
		expect(first.json.results).toEqual(all.results.slice(0, 5));
		expect(first.json).toMatchObject({
			matched: 5,
			more: true,
			truncated: { field: 'results', kept: 5, total: null, next: 'call query again with offset: 5' },
		});
		expect(first.json.limitations).toContain(
			'Stopped at the first 5 matching notes in result order; more notes match (not counted)',
		);
		expect(first.text.split('\n')[0]).toBe('5+ notes match (stopped at the limit; more notes match)');
		const next = await call(server.client, 'query', { type: 'grep', pattern: 'the', limit: 5, offset: 5 });
		expect(next.json.results).toEqual(all.results.slice(5, 10));
		const tail = await call(server.client, 'query', {
			type: 'grep',
			pattern: 'the',
			limit: 5,
			offset: all.matched - 3,
		});
		expect(tail.json.results).toEqual(all.results.slice(all.matched - 3));
		expect(tail.json).not.toHaveProperty('more');
		expect(tail.json).not.toHaveProperty('truncated');
	});

	it('read runs the schema-strict reader with its retrieval report', async () => {
		const out = await call(server.client, 'read', { operation: 'lookup', slug: 'dcf-valuation', folders: ['all'] });
		expect(out.json).toEqual(
			JSON.parse(
				(await cli(['lookup', 'dcf-valuation', '--folders', 'all', '--json', '--vault', EXAMPLE_VAULT])).stdout,
			),
		);
		expect(out.text).toContain('RETRIEVAL REPORT');
		const filter = await call(server.client, 'read', {
			operation: 'filter',
			where: { domain: 'investing' },
			folders: ['all'],
		});
		expect(filter.json.status).not.toBe('failed');
		expect(filter.json.results?.length).toBeGreaterThan(0);
	});

	it('pack builds a cited context pack with its handoff, like `vault-query pack --json`', async () => {
		const out = await call(server.client, 'pack', {
			question: 'how do I value a company?',
			budget: 800,
			task: 'write a memo',
		});
		const printed = JSON.parse(
			(
				await cli([
					'pack',
					'how do I value a company?',
					'--budget',
					'800',
					'--task',
					'write a memo',
					'--json',
					'--vault',
					EXAMPLE_VAULT,
				])
			).stdout,
		) as Record<string, unknown>;
		expect(out.json).toEqual(printed);
		expect(out.json.handoff).toMatchObject({ token_budget: 800, task: 'write a memo' });
		expect(out.text).toContain('## HANDOFF');
	});

	it('note returns a note, a heading section and a line range verbatim, like `vault-query note --json`', async () => {
		const whole = await call(server.client, 'note', { note: 'dcf-valuation' });
		expect(whole.json).toEqual(
			JSON.parse((await cli(['note', 'dcf-valuation', '--json', '--vault', EXAMPLE_VAULT])).stdout),
		);
		const note = whole.json.results?.[0] as {
			path: string;
			lines: [number, number];
			total_lines: number;
			text: string;
		};
		expect(note).toMatchObject({ path: 'skill-lab/dcf-valuation.md', lines: [1, note.total_lines] });
		expect(note.text.startsWith('---\ntype: skill')).toBe(true);
		const section = await call(server.client, 'note', { note: 'dcf-valuation#DCF valuation' });
		expect(section.json.results?.[0]).toMatchObject({ section: 'DCF valuation', lines: [12, 17] });
		expect((section.json.results?.[0] as { text: string }).text.startsWith('# DCF valuation')).toBe(true);
		const range = await call(server.client, 'note', { note: 'dcf-valuation', from: 2, to: 3 });
		expect(range.json.results?.[0]).toMatchObject({ lines: [2, 3], text: 'type: skill\ndomain: investing' });
	});

	it('status reports notes indexed, skipped files, freshness and snapshot state', async () => {
		const out = await call(server.client, 'status', {});
		expect(out.json).toMatchObject({
			status: 'success',
			vault_path: EXAMPLE_VAULT,
			search_index: 'ready',
			watcher: { running: true },
		});
		const printed = JSON.parse(
			(await cli(['status', '--build-index', '--json', '--vault', EXAMPLE_VAULT])).stdout,
		) as Record<string, unknown>;
		for (const key of ['notes', 'in_scope', 'indexed', 'exclusions'])
			expect(out.json[key], key).toEqual(printed[key]);
		expect(out.json).toHaveProperty('last_refresh');
		expect(out.json).toHaveProperty('snapshot');
		const memory = out.json.memory as { rss_mb: number; heap_used_mb: number; external_mb: number };
		expect(memory.rss_mb).toBeGreaterThan(0);
		expect(memory.heap_used_mb).toBeLessThanOrEqual(memory.rss_mb);
		expect(out.text).toMatch(/^Memory: \d+ MB resident \(\d+ MB heap, \d+ MB outside it\)$/m);
	});

	it('a second server on the vault starts from the saved index snapshot; --no-cache reads it whole', async () => {
		// A cache of its own: the in-process CLI calls of this file save snapshots stamped with another build.
		const env = { VAULT_QUERY_CACHE_DIR: mkdtempSync(join(tmpdir(), 'vq-mcp-warm-')) };
		await (await connect(EXAMPLE_VAULT, { env })).close();
		const warm = await connect(EXAMPLE_VAULT, { mode: 'legacy', env });
		const cold = await connect(EXAMPLE_VAULT, { mode: 'legacy', extra: ['--no-cache'], env });
		try {
			expect((await call(warm.client, 'status', {})).json.snapshot).toMatchObject({ state: 'warm' });
			expect((await call(cold.client, 'status', {})).json.snapshot).toMatchObject({ state: 'off' });
		} finally {
			await warm.close();
			await cold.close();
		}
	});

	it('unknown parameters, wrong types and missing arguments are errors naming the parameter', async () => {
		const cases: [string, Record<string, unknown>, RegExp][] = [
			['search', { query: 'x', limt: 3 }, /limt/],
			['search', { query: 3 }, /query/],
			['search', { query: 'x', limit: 0 }, /limit/],
			['query', { type: 'tag' }, /tag: required/],
			['query', { type: 'tag', tag: 'x', pattern: 'y' }, /pattern: does not apply/],
			['query', { type: 'colour', tag: 'x' }, /type/],
			['read', { operation: 'lookup' }, /slug: required/],
			['read', { operation: 'filter' }, /where: required/],
			['pack', { question: 'x', budget: 'lots' }, /budget/],
			['note', { note: 'dcf-valuation', from: 9, to: 2 }, /from/],
			['note', { note: 'dcf-valuation#No such heading' }, /no heading/],
			['note', { note: 'no-such-note-anywhere' }, /no note named/],
			['status', { verbose: true }, /verbose/],
		];
		for (const [tool, args, message] of cases) {
			const out = await call(server.client, tool, args);
			expect(out.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
			expect(out.text, `${tool} ${JSON.stringify(args)}`).toMatch(message);
		}
	});

	it('paths that leave the vault are refused: ../, absolute paths, in tools and resources', async () => {
		for (const note of ['../outside', '/etc/hostname', 'skill-lab/../../x']) {
			const out = await call(server.client, 'note', { note });
			expect(out.isError, note).toBe(true);
			expect(out.text, note).toMatch(/leaves the vault|absolute/);
		}
		await expect(
			server.client.readResource({ uri: 'vault-query://note/..%2F..%2Fetc%2Fhostname' }),
		).rejects.toThrow(/leaves the vault/);
	});

	it('the handoff prompt returns the context pack as a message; note resources read verbatim', async () => {
		const prompt = await server.client.getPrompt({
			name: 'handoff',
			arguments: { question: 'discount rate', budget: '600' },
		});
		const message = prompt.messages[0]!.content as { type: string; text: string };
		expect(message.text).toContain('## HANDOFF');
		const read = await server.client.readResource({ uri: 'vault-query://note/skill-lab/dcf-valuation.md' });
		expect((read.contents[0] as { text: string }).text).toContain('# DCF valuation');
		const listed = await server.client.listResources();
		expect(listed.resources.some((r) => r.uri === 'vault-query://note/skill-lab/dcf-valuation.md')).toBe(true);
	});

	it('drives the server once with the MCP Inspector CLI', async () => {
		// The inspector finds its own package.json relative to the working directory, so it runs from a subfolder.
		const inspector = join(REPO, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build', 'cli.js');
		const { stdout } = await run(
			process.execPath,
			[
				inspector,
				'--cli',
				process.execPath,
				BIN,
				'mcp',
				'--vault',
				EXAMPLE_VAULT,
				'--method',
				'tools/call',
				'--tool-name',
				'query',
				'--tool-arg',
				'type=tag',
				'--tool-arg',
				'tag=copilot',
			],
			{ cwd: join(REPO, 'scripts'), timeout: 30_000 },
		);
		const result = JSON.parse(stdout) as { structuredContent: { status: string; results: unknown[] } };
		expect(result.structuredContent.status).not.toBe('failed');
		expect(result.structuredContent.results.length).toBeGreaterThan(0);
	});
});

describe('MCP responses stay within the byte budget', () => {
	it('a long answer is cut at a whole result, says so, and offset gets the rest', async () => {
		const server = await connect(EXAMPLE_VAULT, { extra: ['--max-bytes', '6000'] });
		try {
			const first = await call(server.client, 'query', { type: 'grep', pattern: 'e', limit: 100 });
			expect(first.bytes).toBeLessThanOrEqual(6000);
			const truncated = first.json.truncated as { kept: number; total: number; next: string };
			expect(truncated.kept).toBeGreaterThan(0);
			expect(truncated.kept).toBeLessThan(truncated.total);
			expect(truncated.next).toBe(`call query again with offset: ${truncated.kept}`);
			expect(first.json.limitations?.some((l) => l.startsWith('Response cut at'))).toBe(true);
			const rest = await call(server.client, 'query', {
				type: 'grep',
				pattern: 'e',
				limit: 100,
				offset: truncated.kept,
			});
			const firstPaths = (first.json.results ?? []).map((r) => r.path);
			const restPaths = (rest.json.results ?? []).map((r) => r.path);
			expect(restPaths.length).toBeGreaterThan(0);
			expect(restPaths.filter((p) => firstPaths.includes(p))).toEqual([]);
			const note = await call(server.client, 'note', { note: '_meta/frontmatter-schema' });
			expect(note.bytes).toBeLessThanOrEqual(6000);
		} finally {
			await server.close();
		}
	});

	it('--max-bytes below one result is a usage error', async () => {
		const out = await cli(['mcp', '--max-bytes', '100', '--vault', EXAMPLE_VAULT]);
		expect(out.code).toBe(2);
		expect(out.stderr).toMatch(/--max-bytes must be at least 4096/);
	});
});
