import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NoteResult, QueryResult } from '../../src/core/contract';
import { cli, cliJson } from '../helpers/cli';
import { hashTree } from '../helpers/hash';
import { EXAMPLE_VAULT } from '../helpers/paths';

/** A throwaway vault with these files. */
function vault(files: Record<string, string>): string {
	const root = mkdtempSync(join(tmpdir(), 'vq-config-'));
	for (const [path, text] of Object.entries(files)) {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), text);
	}
	return root;
}

const NOTES = {
	'Topic.md': '# Topic\n',
	'a.md': '---\nrelated: [Topic]\n---\nA mentions nothing in its body.\n',
	'_views/b.md': 'See [[Topic]].\n',
};

interface ConfigJson {
	settings: Record<string, unknown>;
	origins: Record<string, string>;
	settings_file: { path: string; found: boolean; used: boolean; problem: string | null };
	notes: string[];
}

describe('one configuration for both faces: the CLI reads the plugin data.json', () => {
	it("uses the plugin's saved settings (links key, excluded folders), and flags override them", async () => {
		const root = vault({
			...NOTES,
			'.obsidian/plugins/vault-query/data.json': JSON.stringify({
				linksKey: 'related',
				excludedFolders: ['_views/'],
			}),
		});
		const before = hashTree(root);
		const saved = await cliJson<QueryResult<NoteResult>>(['backlinks', 'Topic', '--vault', root]);
		expect(saved.json.results.map((r) => r.path)).toEqual(['a.md']);
		const flagged = await cliJson<QueryResult<NoteResult>>([
			'backlinks',
			'Topic',
			'--vault',
			root,
			'--links-key',
			'links',
		]);
		expect(flagged.json.results.map((r) => r.path)).toEqual([]);
		expect(hashTree(root)).toBe(before);
	});

	it('reads data.json from --config-dir', async () => {
		const root = vault({
			...NOTES,
			'.obsidian-work/plugins/vault-query/data.json': JSON.stringify({ linksKey: 'related' }),
		});
		const plain = await cliJson<QueryResult<NoteResult>>(['backlinks', 'Topic', '--vault', root]);
		expect(plain.json.results.map((r) => r.path)).toEqual(['_views/b.md']);
		const work = await cliJson<QueryResult<NoteResult>>([
			'backlinks',
			'Topic',
			'--vault',
			root,
			'--config-dir',
			'.obsidian-work',
		]);
		expect(work.json.results.map((r) => r.path).sort()).toEqual(['_views/b.md', 'a.md']);
	});

	it('a malformed data.json is said on stderr and the defaults answer', async () => {
		const root = vault({ ...NOTES, '.obsidian/plugins/vault-query/data.json': '{ not json' });
		const run = await cliJson<QueryResult<NoteResult>>(['backlinks', 'Topic', '--vault', root]);
		expect(run.code).toBe(0);
		expect(run.stderr).toMatch(/settings: \.obsidian\/plugins\/vault-query\/data\.json not used/);
	});

	it('vault-query config prints each effective setting and where it came from', async () => {
		const root = vault({
			...NOTES,
			'.obsidian/plugins/vault-query/data.json': JSON.stringify({ profile: 'team-folders', linksKey: 'related' }),
		});
		const { code, json } = await cliJson<ConfigJson>(['config', '--vault', root, '--sort', 'mtime']);
		expect(code).toBe(0);
		expect(json.settings_file).toEqual({
			path: '.obsidian/plugins/vault-query/data.json',
			found: true,
			used: true,
			problem: null,
		});
		expect(json.origins.linksKey).toBe('.obsidian/plugins/vault-query/data.json');
		expect(json.origins.authorityOrder).toBe('profile team-folders (.obsidian/plugins/vault-query/data.json)');
		expect(json.origins.sort).toBe('--sort');
		expect(json.origins.contextLines).toBe('default');
		const text = await cli(['config', '--vault', root]);
		expect(text.stdout).toMatch(/^Vault: /);
		expect(text.stdout).toMatch(/Profile: team-folders — /);
		expect(text.stdout).toMatch(/ {2}linksKey +related +\[\.obsidian\/plugins\/vault-query\/data\.json\]/);
	});

	it('an unknown --profile or --sort is a usage error before the vault is read', async () => {
		const bad = await cli(['grep', 'x', '--vault', '/no/such/vault', '--profile', 'team']);
		expect(bad.code).toBe(2);
		expect(bad.stderr).toMatch(/--profile: unknown profile "team"; profiles: team-folders, none/);
		const sort = await cli(['tag', 'x', '--vault', EXAMPLE_VAULT, '--sort', 'size']);
		expect(sort.stderr).toMatch(/--sort must be one of path, mtime, title/);
	});
});

describe('examples/vault selects profile team-folders through its committed data.json', () => {
	it('its team folders are excluded and decisions/ ranks first; --profile none shows them by path', async () => {
		const ob1 = await cliJson<QueryResult<NoteResult>>(['grep', 'OB1', '--vault', EXAMPLE_VAULT]);
		expect(ob1.json.results.map((r) => r.path)).toEqual([
			'decisions/2026-06-20-adopt-obsidian-and-ob1-patterns.md',
			'Home.md',
		]);
		const none = await cliJson<QueryResult<NoteResult>>([
			'grep',
			'OB1',
			'--vault',
			EXAMPLE_VAULT,
			'--profile',
			'none',
		]);
		expect(none.json.results.map((r) => r.path)).toEqual([
			'Home.md',
			'_views/open-research.md',
			'decisions/2026-06-20-adopt-obsidian-and-ob1-patterns.md',
		]);
	});

	it('--sort title and --sort mtime reorder structural results', async () => {
		const title = await cliJson<QueryResult<NoteResult>>([
			'grep',
			'OB1',
			'--vault',
			EXAMPLE_VAULT,
			'--profile',
			'none',
			'--sort',
			'title',
		]);
		const titles = title.json.results.map((r) => r.title.toLowerCase());
		expect(titles).toEqual([...titles].sort());
		const mtime = await cliJson<QueryResult<NoteResult>>([
			'grep',
			'OB1',
			'--vault',
			EXAMPLE_VAULT,
			'--profile',
			'none',
			'--sort',
			'mtime',
		]);
		expect(mtime.json.results).toHaveLength(3);
	});
});
