// @vitest-environment happy-dom
/**
 * The plugin's `api.query` must answer with the same JSON as the CLI's `--json` — i.e. as
 * `runQuery` over a NodeVaultSource on the same folder. The plugin side runs on the fake App,
 * whose metadata cache is filled by the same Node parser, so any difference comes from the
 * adapters (listing order, skip reasons, resolution, link maps, what Obsidian can know).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { QueryResult } from '../../src/core/contract';
import { runQuery } from '../../src/core/query/run';
import type { StructuredQuery } from '../../src/core/query/types';
import { DEFAULT_SETTINGS } from '../../src/core/settings';
import { FRONTMATTER_UNPARSED } from '../../src/obsidian/source';
import { openVault, type NodeVaultSource } from '../../src/node/vault-source';
import { hashTree } from '../helpers/hash';
import { FakeApp } from './fake-app';
import { EXAMPLE_VAULT, loadPlugin, settle, unloadLoadedPlugins } from './harness';

// Every test loads its own plugin: unload it, so a build still running cannot schedule a save after the file's window is gone.
afterEach(() => unloadLoadedPlugins());

type Plugin = Awaited<ReturnType<typeof loadPlugin>>;

/** Both faces over one folder. */
async function bothFaces(root: string): Promise<{ node: NodeVaultSource; plugin: Plugin }> {
	const node = await openVault(root);
	const app = FakeApp.fromFolder(root);
	const plugin = await loadPlugin(app);
	app.layoutReady();
	app.indexAll();
	await settle();
	expect(plugin.api.state()).toBe('ready');
	return { node, plugin };
}

async function cliJson(node: NodeVaultSource, query: StructuredQuery): Promise<unknown> {
	return JSON.parse(JSON.stringify(await runQuery(node, query, DEFAULT_SETTINGS))) as unknown;
}

/**
 * The differences Obsidian itself imposes, and nothing else:
 * - Obsidian does not say why YAML failed, so a skip reason's `(detail)` differs: both are
 *   rewritten to `(…)` after checking the plugin's says what the adapter reports.
 * - Obsidian never shows dot-folders (`.templates/`, `_inbox/.dropped/`), so the CLI's
 *   "Not searched: n note(s) in .templates/" lines have no counterpart; they are dropped.
 */
function obsidianView(result: unknown, face: 'cli' | 'plugin'): unknown {
	const r = structuredClone(result) as QueryResult<unknown>;
	for (const s of r.skipped) {
		if (face === 'plugin' && s.reason.startsWith('frontmatter not parsed'))
			expect(s.reason).toContain(FRONTMATTER_UNPARSED);
		s.reason = s.reason.replace(/^frontmatter not parsed \(.*?\);/, 'frontmatter not parsed (…);');
	}
	r.limitations = r.limitations.filter((line) => !/^Not searched: \d+ note\(s\) in (.*\/)?\./.test(line));
	return r;
}

const FIXTURE: Record<string, string> = {
	'Home.md':
		'---\ntags: [home]\nrelated: "[[people/ana]]"\n---\n# Home\n\nStart at [[conventions]], then [[projects/alpha|Alpha]] and [[Missing page]].\n![[diagram.png]]\n',
	'conventions.md':
		'---\nstatus: active\ntags: [meta]\n---\n# Conventions\n\nRules of the house. #process/review\nSee [[Home#Start]].\n',
	'facts/claim.md':
		'---\nstatus: verified\nlinks: [conventions, "[[Home]]"]\n---\n# A claim\n\nThe rules say so. #fact\n',
	'projects/alpha.md':
		'---\nstatus: [active, pilot]\nowner: "[[people/ana]]"\n---\n# Alpha\n\nFollows the rules. #project/alpha\n',
	'people/ana.md': '---\nrole: lead\n---\n# Ana\n\nWrites rules.\n',
	'archive/conventions.md': '# Old conventions\n\nRetired rules.\n',
	'notes/broken.md': '---\ntags: [unclosed\nstatus: active\n---\nStill mentions the RULES and [[conventions]].\n',
	'notes/crlf.md': '---\r\nstatus: draft\r\n---\r\nWindows rules.\r\n#crlf\r\n',
	'notes/unicode é.md': '# Café\n\nÜber rules. #émoji/🎉\n',
	'attachments/diagram.png': 'PNG',
};

const QUERIES: StructuredQuery[] = [
	{ type: 'tag', tag: '#process' },
	{ type: 'tag', tag: 'PROJECT' },
	{ type: 'tag', tag: 'émoji' },
	{ type: 'tag', tag: 'proces' },
	{ type: 'prop', key: 'status', value: 'active' },
	{ type: 'prop', key: 'status', value: 'act', match: 'contains' },
	{ type: 'prop', key: 'Status', value: 'active' },
	{ type: 'prop', key: 'role' },
	{ type: 'backlinks', target: 'Home' },
	{ type: 'backlinks', target: 'people/ana.md' },
	{ type: 'backlinks', target: 'conventions' },
	{ type: 'backlinks', target: 'nobody' },
	{ type: 'links', source: 'Home' },
	{ type: 'links', source: 'facts/claim' },
	{ type: 'grep', pattern: 'rules' },
	{ type: 'grep', pattern: 'RULES', caseSensitive: true },
	{ type: 'grep', pattern: 'r[ue]les?\\b', regex: true, limit: 2 },
	{ type: 'grep', pattern: '([', regex: true },
	{ type: 'grep', pattern: 'rules', folders: ['notes'] },
	{ type: 'grep', pattern: 'rules', folders: ['nowhere'] },
	{ type: 'tag', tag: 'fact', limit: 0 },
];

describe('api.query returns the CLI’s JSON', () => {
	let dir: string;

	beforeAll(() => {
		dir = mkdtempSync(join(tmpdir(), 'vault-query-parity-'));
		for (const [path, text] of Object.entries(FIXTURE)) {
			mkdirSync(dirname(join(dir, path)), { recursive: true });
			writeFileSync(join(dir, path), text);
		}
	});

	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	it.each(QUERIES.map((q) => [JSON.stringify(q), q] as const))('on a fixture vault: %s', async (_label, query) => {
		const { node, plugin } = await bothFaces(dir);
		const cli = await cliJson(node, query);
		const api = await plugin.api.query(query);
		expect(obsidianView(api, 'plugin')).toEqual(obsidianView(cli, 'cli'));
	});

	it('is byte-for-byte identical where Obsidian knows as much as the CLI', async () => {
		const { node, plugin } = await bothFaces(dir);
		for (const query of QUERIES) {
			const scoped = { ...query, folders: ['facts', 'projects', 'people'] };
			expect(JSON.stringify(await plugin.api.query(scoped))).toBe(JSON.stringify(await cliJson(node, scoped)));
		}
	});
});

describe('api.query on examples/vault', () => {
	const QUERIES_ON_EXAMPLE: StructuredQuery[] = [
		{ type: 'tag', tag: 'project' },
		{ type: 'tag', tag: '#copilot' },
		{ type: 'tag', tag: '中文' },
		{ type: 'prop', key: 'status', value: 'active' },
		{ type: 'prop', key: 'Status', value: 'active' },
		{ type: 'backlinks', target: 'conventions' },
		{ type: 'backlinks', target: 'sdlc-modernization' },
		{ type: 'links', source: 'decisions/2026-06-20-adopt-obsidian-and-ob1-patterns' },
		{ type: 'links', source: 'Home' },
		{ type: 'grep', pattern: 'OB1' },
		{ type: 'grep', pattern: 'ob-?1', regex: true },
	];

	it('answers every query type as the CLI does, and leaves the vault untouched', async () => {
		const before = hashTree(EXAMPLE_VAULT);
		const { node, plugin } = await bothFaces(EXAMPLE_VAULT);
		for (const query of QUERIES_ON_EXAMPLE) {
			const cli = await cliJson(node, query);
			const api = await plugin.api.query(query);
			expect(obsidianView(api, 'plugin'), JSON.stringify(query)).toEqual(obsidianView(cli, 'cli'));
		}
		expect(hashTree(EXAMPLE_VAULT)).toBe(before);
	});
});
