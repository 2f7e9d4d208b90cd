// @vitest-environment happy-dom
/**
 * The plugin's Obsidian CLI handlers (`obsidian vault-query:search query="…"` and friends), called
 * the way the `obsidian` CLI calls them: flags as strings, bare flags as 'true'. They answer from
 * the plugin's live index with the CLI's JSON (`format=json`) or a text listing.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACK, SEARCH } from '../../src/core/query/registry';
import { cli } from '../helpers/cli';
import { cliHandlers, Plugin } from '../obsidian-stub/index';
import { FakeApp } from './fake-app';
import { EXAMPLE_VAULT, loadPlugin, settle } from './harness';

const FIXTURE: Record<string, string> = {
	'Home.md': '---\ntags: [home]\n---\n# Home\n\nStart at [[conventions]] and [[projects/alpha]].\n',
	'conventions.md': '---\nstatus: active\n---\n# Conventions\n\nRules of the house for syncing notes. #process\n',
	'projects/alpha.md':
		'---\nstatus: active\ntype: skill\ndomain: engineering\n---\n# Alpha\n\nAlpha follows the sync rules. #project\n',
	'_meta/frontmatter-schema.md': readFileSync(join(EXAMPLE_VAULT, '_meta', 'frontmatter-schema.md'), 'utf8'),
	'Notes/sync-faq.md': '---\ntype: faq\nstatus: active\n---\n# Sync FAQ\n\nSync is encrypted end to end.\n',
};

/** Calls a registered handler as the `obsidian` CLI would. */
async function run(command: string, flags: Record<string, string>): Promise<string> {
	const entry = cliHandlers.get(command);
	if (!entry) throw new Error(`${command} is not registered`);
	return entry.handler(flags);
}

describe('Obsidian CLI handlers', () => {
	let dir: string;
	let plugin: Awaited<ReturnType<typeof loadPlugin>>;

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), 'vault-query-cli-handlers-'));
		for (const [path, text] of Object.entries(FIXTURE)) {
			mkdirSync(dirname(join(dir, path)), { recursive: true });
			writeFileSync(join(dir, path), text);
		}
		const app = FakeApp.fromFolder(dir);
		plugin = await loadPlugin(app);
		app.layoutReady();
		app.indexAll();
		await settle();
		await plugin.api.whenReady();
	});

	afterAll(() => {
		plugin.unload();
		rmSync(dir, { recursive: true, force: true });
	});

	it('registers vault-query:search, :query, :read and :pack with their flags', () => {
		expect([...cliHandlers.keys()].filter((k) => k.startsWith('vault-query:')).sort()).toEqual([
			'vault-query:pack',
			'vault-query:query',
			'vault-query:read',
			'vault-query:search',
		]);
		expect(cliHandlers.get('vault-query:search')?.flags?.query).toMatchObject({ required: true });
		expect(cliHandlers.get('vault-query:search')?.flags?.format!.value).toBe('json|text');
	});

	it('search answers with the JSON of `vault-query search --json`, or a text listing', async () => {
		const json = JSON.parse(
			await run('vault-query:search', { query: 'sync encrypted', limit: '3', format: 'json' }),
		) as { results: { path: string }[] };
		const printed = JSON.parse(
			(await cli(['search', 'sync encrypted', '--limit', '3', '--json', '--vault', dir])).stdout,
		) as { results: { path: string }[] };
		expect(json.results.map((r) => r.path)).toEqual(printed.results.map((r) => r.path));
		expect(json).toEqual(await plugin.api.search('sync encrypted', { limit: 3 }));
		expect(await run('vault-query:search', { query: 'sync encrypted' })).toContain('Notes/sync-faq.md');
	});

	it('query runs each structural type like `vault-query <type> --json`', async () => {
		const tag = JSON.parse(
			await run('vault-query:query', { type: 'tag', tag: 'process', format: 'json' }),
		) as unknown;
		expect(tag).toEqual(JSON.parse((await cli(['tag', 'process', '--json', '--vault', dir])).stdout));
		const prop = JSON.parse(
			await run('vault-query:query', { type: 'prop', key: 'status', value: 'active', format: 'json' }),
		) as unknown;
		expect(prop).toEqual(JSON.parse((await cli(['prop', 'status', 'active', '--json', '--vault', dir])).stdout));
		const grep = JSON.parse(
			await run('vault-query:query', { type: 'grep', pattern: 'SYNC', 'case-sensitive': 'true', format: 'json' }),
		) as { matched: number };
		expect(grep.matched).toBe(0);
		expect(await run('vault-query:query', { type: 'backlinks', note: 'conventions' })).toMatch(
			/^Home\.md {2}\[\w+\]\n {2}Home$/m,
		);
		expect(await run('vault-query:query', { type: 'links', note: 'Home' })).toContain(
			'[[conventions]] → conventions.md',
		);
	});

	it('read answers with the reader report; pack with the handoff', async () => {
		const lookup = JSON.parse(
			await run('vault-query:read', { operation: 'lookup', slug: 'sync-faq', format: 'json' }),
		) as { status: string };
		// The one difference is the vault's label: Obsidian names the vault, the CLI gives its folder.
		const printed = (await cli(['lookup', 'sync-faq', '--json', '--vault', dir])).stdout
			.split(dir)
			.join('Fake vault');
		expect(lookup).toEqual(JSON.parse(printed));
		expect(lookup.status).toBe('success');
		const filter = JSON.parse(
			await run('vault-query:read', {
				operation: 'filter',
				where: 'type=skill;domain=engineering',
				folders: 'all',
				format: 'json',
			}),
		) as { results: { path: string }[] };
		expect(filter.results.map((r) => r.path)).toEqual(['projects/alpha.md']);
		expect(await run('vault-query:read', { operation: 'lookup', slug: 'sync-faq' })).toContain('RETRIEVAL REPORT');
		const pack = JSON.parse(
			await run('vault-query:pack', {
				query: 'is sync encrypted?',
				budget: '500',
				task: 'answer a user',
				format: 'json',
			}),
		) as { handoff: Record<string, unknown>; pack: unknown[] };
		expect(pack.handoff).toMatchObject({ token_budget: 500, task: 'answer a user' });
		expect(pack.pack.length).toBeGreaterThan(0);
		expect(await run('vault-query:pack', { query: 'is sync encrypted?' })).toContain('## HANDOFF');
	});

	it('search and pack take every option their registry entry lists, as the CLI does', async () => {
		for (const spec of [SEARCH, PACK]) {
			const flags = cliHandlers.get(`vault-query:${spec.name}`)?.flags ?? {};
			expect(Object.keys(flags).sort()).toEqual(
				['format', 'query', ...spec.options.map((option) => option.name)].sort(),
			);
		}
		const inFolder = JSON.parse(
			await run('vault-query:search', { query: 'sync', folders: 'projects', format: 'json' }),
		) as { results: { path: string }[] };
		const printed = JSON.parse(
			(await cli(['search', 'sync', '--folders', 'projects', '--json', '--vault', dir])).stdout,
		) as { results: { path: string }[] };
		expect(inFolder.results.map((r) => r.path)).toEqual(['projects/alpha.md']);
		expect(inFolder.results.map((r) => r.path)).toEqual(printed.results.map((r) => r.path));
		const dated = JSON.parse(
			await run('vault-query:pack', {
				query: 'is sync encrypted?',
				today: '2026-01-02',
				'include-drafts': 'true',
				format: 'json',
			}),
		) as { handoff: Record<string, unknown> };
		expect(dated.handoff.built_at).toBe('2026-01-02');
		expect(await run('vault-query:pack', { query: 'x', today: 'tomorrow' })).toMatch(
			/^Error: today: a day \(YYYY-MM-DD\)/,
		);
		expect(await run('vault-query:search', { query: 'x', limit: '100001' })).toMatch(
			/^Error: limit: at most 100000/,
		);
	});

	it('unknown flags, missing and malformed values are errors naming the flag', async () => {
		expect(await run('vault-query:search', { query: 'x', limt: '3' })).toMatch(/^Error: unknown flag "limt"/);
		expect(await run('vault-query:search', {})).toMatch(/^Error: query: required/);
		expect(await run('vault-query:search', { query: 'x', limit: 'many' })).toMatch(/^Error: limit: a whole number/);
		expect(await run('vault-query:search', { query: 'x', format: 'yaml' })).toMatch(/^Error: format: json or text/);
		expect(await run('vault-query:query', { type: 'colour' })).toMatch(/^Error: type: one of tag/);
		expect(await run('vault-query:query', { type: 'grep', pattern: 'x', regex: 'maybe' })).toMatch(
			/^Error: regex: takes no value/,
		);
		expect(await run('vault-query:read', { operation: 'lookup' })).toMatch(/^Error: slug: required/);
	});

	it('handlers go away when the plugin unloads', async () => {
		const app = FakeApp.fromFolder(dir);
		plugin.unload();
		expect([...cliHandlers.keys()].some((k) => k.startsWith('vault-query:'))).toBe(false);
		plugin = await loadPlugin(app);
		expect(cliHandlers.has('vault-query:search')).toBe(true);
	});
});

describe('on an Obsidian without registerCliHandler (before 1.12.2)', () => {
	it('the plugin still loads, with its commands, and registers no handlers', async () => {
		const proto = Plugin.prototype as Partial<Plugin>;
		const original = proto.registerCliHandler;
		delete proto.registerCliHandler;
		try {
			const app = FakeApp.fromFolder(mkdtempSync(join(tmpdir(), 'vault-query-old-')));
			const plugin = await loadPlugin(app);
			expect(cliHandlers.has('vault-query:search')).toBe(false);
			expect(app.commands.commands['vault-query:search-vault']).toBeDefined();
			plugin.unload();
		} finally {
			proto.registerCliHandler = original;
		}
	});
});
