/**
 * The one registry of query types (core/query/registry.ts): every registered type is reachable
 * from every face — the CLI, the Obsidian CLI handler, the MCP `query` tool, the palette prompt
 * and the code block — and no face lists a type the registry lacks.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plugin } from 'obsidian';
import { STRUCTURAL_COMMANDS } from '../../src/cli/commands/structural';
import { COMMANDS } from '../../src/cli/commands/index';
import { failed } from '../../src/core/query/envelope';
import {
	QUERY_TYPE_NAMES,
	QUERY_TYPES,
	RANKED_OPERATIONS,
	PACK,
	SEARCH,
	type ArgumentValues,
} from '../../src/core/query/registry';
import type { StructuredQuery } from '../../src/core/query/types';
import { packTool, queryTool, searchTool } from '../../src/mcp/tools';
import type { VaultSession } from '../../src/warm/session';
import { registerCliHandlers, type CliHandlerHost } from '../../src/obsidian/cli-handlers';
import { BLOCK_QUERY_KEYS, parseBlock } from '../../src/ui/code-block-syntax';
import { QUERY_COMMANDS } from '../../src/ui/query-commands';
import { cliJson } from '../helpers/cli';

/** Every registered text argument is given the one name the fixture vault answers for all of them. */
const VALUE = 'Home';

/** A host for the Obsidian CLI handlers and an MCP session that record the query the face built. */
function recorder(): { seen: StructuredQuery[]; host: CliHandlerHost; session: VaultSession } {
	const seen: StructuredQuery[] = [];
	const query = (q: StructuredQuery) => {
		seen.push(q);
		return Promise.resolve(failed({ ...q }, 'recorded only'));
	};
	const host = { query, vaultPath: () => '/v' } as unknown as CliHandlerHost;
	const state = { engine: { query } };
	const session = {
		current: () => Promise.resolve(state),
		use: <T>(call: (s: typeof state) => Promise<T>) => call(state),
	} as unknown as VaultSession;
	return { seen, host, session };
}

/** The Obsidian CLI handlers, registered on a stand-in plugin: command → flags and handler. */
function obsidianHandlers(
	host: CliHandlerHost,
): Map<
	string,
	{ flags: Record<string, { value?: string }>; handler: (data: Record<string, string>) => Promise<string> }
> {
	const handlers = new Map<
		string,
		{ flags: Record<string, { value?: string }>; handler: (data: Record<string, string>) => Promise<string> }
	>();
	const plugin = {
		registerCliHandler: (
			command: string,
			_d: string,
			flags: Record<string, { value?: string }>,
			handler: (data: Record<string, string>) => Promise<string>,
		) => handlers.set(command, { flags, handler }),
	};
	registerCliHandlers(plugin as unknown as Plugin, host);
	return handlers;
}

describe('one registry of query types', () => {
	let vault: string;
	beforeAll(() => {
		vault = mkdtempSync(join(tmpdir(), 'vault-query-registry-'));
		writeFileSync(join(vault, `${VALUE}.md`), `---\n${VALUE}: ${VALUE}\n---\n${VALUE} #${VALUE}, see [[Other]].\n`);
		writeFileSync(join(vault, 'Other.md'), `Back to [[${VALUE}]].\n`);
	});
	afterAll(() => rmSync(vault, { recursive: true, force: true }));

	it('the CLI has one command per registered type, and it answers with a query of that type', async () => {
		expect(STRUCTURAL_COMMANDS.map((c) => c.name)).toEqual(QUERY_TYPE_NAMES);
		for (const spec of QUERY_TYPES) {
			expect(COMMANDS.filter((c) => c.name === spec.type)).toHaveLength(1);
			const positionals = spec.args.filter((a) => a.kind === 'text' && a.required).map(() => VALUE);
			const { code, json } = await cliJson<{ status: string; query: { type: string }; matched: number }>([
				spec.type,
				...positionals,
				'--vault',
				vault,
			]);
			expect([spec.type, code, json.status, json.query.type]).toEqual([spec.type, 0, 'success', spec.type]);
			expect(json.matched).toBeGreaterThan(0);
		}
	});

	it('the Obsidian CLI query handler offers exactly the registered types and builds each', async () => {
		const { seen, host } = recorder();
		const query = obsidianHandlers(host).get('vault-query:query');
		expect(query?.flags.type!.value?.split('|')).toEqual(QUERY_TYPE_NAMES);
		for (const spec of QUERY_TYPES) {
			const flags: Record<string, string> = { type: spec.type };
			for (const arg of spec.args) if (arg.required) flags[arg.name] = VALUE;
			await query?.handler(flags);
			expect(seen.at(-1)?.type).toBe(spec.type);
		}
		expect(await query?.handler({ type: 'colour' })).toMatch(/^Error: type: one of tag, prop/);
	});

	it("the MCP query tool's type enum is the registry, and each type builds its query", async () => {
		const { seen, session } = recorder();
		expect(queryTool.input.shape.type.options).toEqual(QUERY_TYPE_NAMES);
		for (const spec of QUERY_TYPES) {
			const args: ArgumentValues = { type: spec.type };
			for (const arg of spec.args) if (arg.required) args[arg.name.replace(/-/g, '_')] = VALUE;
			await queryTool.run(queryTool.input.parse(args), session);
			expect(seen.at(-1)?.type).toBe(spec.type);
		}
	});

	it('the palette has one prompt per registered type, parsing its one-line syntax', () => {
		expect(QUERY_COMMANDS.map((c) => c.type)).toEqual(QUERY_TYPE_NAMES);
		expect(new Set(QUERY_COMMANDS.map((c) => c.id)).size).toBe(QUERY_TYPES.length);
		for (const spec of QUERY_TYPES) {
			const command = QUERY_COMMANDS.find((c) => c.type === spec.type);
			expect(command?.parse(spec.example)).toMatchObject({ type: spec.type });
		}
	});

	it('the code block accepts every registered type and alias, and no key the registry lacks', () => {
		expect([...new Set([...BLOCK_QUERY_KEYS.values()].map((spec) => spec.type))]).toEqual(QUERY_TYPE_NAMES);
		for (const spec of QUERY_TYPES) {
			for (const key of [spec.type, ...spec.aliases]) {
				expect(BLOCK_QUERY_KEYS.get(key)?.type).toBe(spec.type);
				expect(parseBlock(`${key}: ${spec.example}`, 'n.md')).toMatchObject({
					kind: 'structural',
					query: { type: spec.type },
				});
			}
		}
		expect(parseBlock('colour: red', 'n.md')).toMatchObject({ kind: 'error' });
	});

	it('search and pack: the CLI commands take their names, summaries and options from the registry entries, and build the request they do', async () => {
		for (const op of RANKED_OPERATIONS) {
			const command = COMMANDS.find((c) => c.name === op.name);
			expect([command?.summary, command?.usage]).toEqual([op.summary, `"<${op.text.name}>"`]);
			for (const option of op.options) expect(command?.flags[option.name]?.help).toBe(option.help);
		}
		// Every option the CLI takes for them reaches the engine: the request echoes what was asked.
		const search = await cliJson<{ status: string; results: unknown[]; query: { raw: string } }>([
			'search',
			VALUE,
			'--limit',
			'1',
			'--folders',
			'/',
			'--vault',
			vault,
		]);
		expect([search.code, search.json.results.length, search.json.query.raw]).toEqual([0, 1, VALUE]);
		expect(SEARCH.build('x', { limit: undefined, folders: [] })).toEqual({ query: 'x', limit: 10 });
		const pack = await cliJson<{
			status: string;
			handoff: { built_at: string; task?: string; token_budget: number };
		}>(['pack', VALUE, '--budget', '900', '--today', '2026-02-03', '--task', 'check', '--vault', vault]);
		expect([pack.code, pack.json.handoff.built_at, pack.json.handoff.token_budget]).toEqual([0, '2026-02-03', 900]);
		expect(PACK.build('q', { 'include-drafts': false, 'include-archived': true })).toMatchObject({
			query: 'q',
			includeDrafts: undefined,
			includeArchived: true,
		});
	});

	it('search and pack: the MCP tools take their parameters, descriptions and defaults from the registry entries, and build the request the CLI does', async () => {
		for (const [tool, op, text, extra] of [
			[searchTool, SEARCH, 'query', ['offset']],
			[packTool, PACK, 'question', []],
		] as const) {
			const shape = tool.input.shape as Record<string, { description?: string }>;
			expect(Object.keys(shape)).toEqual([text, ...op.options.map((o) => o.name.replace(/-/g, '_')), ...extra]);
			expect(tool.name).toBe(op.name);
			expect(tool.description.toLowerCase()).toContain(op.summary.toLowerCase());
			expect(shape[text]!.description?.toLowerCase()).toContain(op.text.help.toLowerCase());
			for (const option of op.options)
				expect(shape[option.name.replace(/-/g, '_')]!.description?.toLowerCase()).toContain(
					option.help.toLowerCase(),
				);
			// Strict: a parameter the registry does not list is refused, by name.
			expect(() => tool.input.parse({ [text]: 'x', colour: 'red' })).toThrow(/colour/);
		}
		const calls: unknown[][] = [];
		const record = (...args: unknown[]) => {
			calls.push(args);
			return Promise.reject(new Error('recorded only'));
		};
		const state = { engine: { search: record, pack: record } };
		const session = { use: <T>(call: (s: typeof state) => Promise<T>) => call(state) } as unknown as VaultSession;
		await expect(
			searchTool.run(searchTool.input.parse({ query: 'x', folders: ['a'], offset: 2 }), session),
		).rejects.toThrow('recorded only');
		expect(calls.at(-1)).toEqual(['x', { limit: SEARCH.build('x', {}).limit + 2, folders: ['a'] }]);
		await expect(
			packTool.run(
				packTool.input.parse({
					question: 'q',
					budget: 900,
					today: '2026-02-03',
					include_drafts: true,
					task: 't',
				}),
				session,
			),
		).rejects.toThrow('recorded only');
		expect(calls.at(-1)).toEqual([
			PACK.build('q', { budget: 900, today: '2026-02-03', 'include-drafts': true, task: 't' }),
		]);
		expect(() => packTool.input.parse({ question: 'q', today: 'tomorrow' })).toThrow();
	});

	it('search and pack: the code block keys and options and the pack prompt read their line through the registry entries', () => {
		expect(parseBlock(`${SEARCH.name}: a b\nlimit: 3`, 'n.md')).toEqual({ kind: 'search', query: 'a b', limit: 3 });
		expect(parseBlock(`${PACK.name}: why?\nbudget: 500`, 'n.md')).toEqual({
			kind: 'pack',
			question: 'why?',
			budget: 500,
		});
		for (const option of RANKED_OPERATIONS.flatMap((op) => op.options)) {
			const block = parseBlock(`search: x\n${option.name}: 2`, 'n.md');
			// Number and list options are block options; text and on/off options are not.
			expect([option.name, block.kind]).toEqual([
				option.name,
				option.kind === 'number' || option.kind === 'list' ? 'search' : 'error',
			]);
		}
		expect(PACK.fromText('  ')).toBe('Type a question for the context pack.');
		expect(SEARCH.fromText(' q ')).toEqual({ query: 'q', limit: 10 });
	});
});
