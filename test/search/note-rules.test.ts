/**
 * Issue 9: every operation answers the same about a note — its title (case 1), its tags
 * (case 2) and which note a name names (case 4) — through the structural queries, ranked
 * search and the side panel alike.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { App } from 'obsidian';
import { describe, expect, it } from 'vitest';
import type { NoteResult } from '../../src/core/contract';
import { runQuery } from '../../src/core/query/run';
import type { StructuredQuery } from '../../src/core/query/types';
import { search, SearchIndex } from '../../src/core/search/search';
import { DEFAULT_SETTINGS } from '../../src/core/settings';
import type { FacesHost } from '../../src/ui/host';
import { buildPanelModel } from '../../src/ui/side-panel-data';
import { MemorySource } from '../helpers/memory-source';
import { SHARED } from '../helpers/paths';
import { itShared } from '../helpers/shared';

/** The structural query's titles, by path. */
async function queryTitles(
	source: MemorySource,
	query: Parameters<typeof runQuery>[1],
): Promise<Record<string, string>> {
	const r = await runQuery(source, query, DEFAULT_SETTINGS);
	return Object.fromEntries((r.results as NoteResult[]).map((n) => [n.path, n.title]));
}

/** A faces host over a memory vault, answering structural queries the way the plugin does. */
function hostOf(source: MemorySource): FacesHost {
	return {
		app: {} as App,
		source,
		query: (q: StructuredQuery) => runQuery(source, q, DEFAULT_SETTINGS),
	} as unknown as FacesHost;
}

describe('issue 9 case 1: the title is the file name, or a title property — never a heading', () => {
	const notes = {
		'a/slug-name.md': '# Pretty Title\n\nAbout slugs. #topic\n\n## Installation\nSteps.\n',
		'a/titled.md': '---\ntitle: Shown Title\n---\n# Another Heading\n\nAbout slugs too. #topic\n',
		'b/linker.md': 'See [[slug-name]] and [[titled]] about slugs. #topic\n',
	};

	it('tag, backlinks, search and the side panel all title a note by its file name', async () => {
		const source = new MemorySource(notes);
		const index = await SearchIndex.build(source);
		expect(await queryTitles(source, { type: 'tag', tag: '#topic' })).toEqual({
			'a/slug-name.md': 'slug-name',
			'a/titled.md': 'Shown Title',
			'b/linker.md': 'linker',
		});
		expect(await queryTitles(source, { type: 'backlinks', target: 'a/slug-name.md' })).toEqual({
			'b/linker.md': 'linker',
		});
		const hits = (await search(index, 'slugs')).results;
		expect(Object.fromEntries(hits.map((h) => [h.path, h.title]))).toEqual({
			'a/slug-name.md': 'slug-name',
			'a/titled.md': 'Shown Title',
			'b/linker.md': 'linker',
		});
		const panel = await buildPanelModel(hostOf(source), 'b/linker.md', 'links');
		expect(panel.title).toBe('linker');
		expect((await buildPanelModel(hostOf(source), 'a/titled.md', 'links')).title).toBe('Shown Title');
		expect(panel.sharing.map((s) => s.title).sort()).toEqual(['Shown Title', 'slug-name']);
		expect(
			(await buildPanelModel(hostOf(source), 'a/slug-name.md', 'links')).backlinks.body.map((b) => b.title),
		).toEqual(['linker']);
	});
});

describe('issue 9 case 2: search reads tags by Obsidian 1.9 rules', () => {
	it('`tag:` (singular) and a comma string under `tags` are not tags, in search as in the tag query', async () => {
		const source = new MemorySource({
			'one.md': '---\ntag: alpha\n---\nText one.\n',
			'two.md': '---\ntags: "beta, gamma"\n---\nText two.\n',
			'three.md': '---\ntags: [delta]\n---\nText three. #epsilon\n',
		});
		const index = await SearchIndex.build(source);
		for (const tag of ['alpha', 'beta', 'gamma', 'beta,', 'delta', 'epsilon']) {
			const structural = Object.keys(await queryTitles(source, { type: 'tag', tag: `#${tag}` })).sort();
			const ranked = (await search(index, `tag:#${tag}`)).results.map((h) => h.path).sort();
			expect(ranked, `tag:#${tag}`).toEqual(structural);
		}
		expect((await search(index, 'tag:#alpha')).results).toEqual([]);
		expect((await search(index, 'tag:#gamma')).results).toEqual([]);
		expect((await search(index, 'tag:#delta')).results.map((h) => h.path)).toEqual(['three.md']);
	});

	const corpus = join(SHARED, 'conformance', 'obsidian-1.9');
	itShared(
		'on every note of the Obsidian 1.9 conformance corpus, `tag:` finds exactly the notes Obsidian tags so',
		async () => {
			const dir = corpus;
			const files: Record<string, string> = {};
			const expected = new Map<string, Set<string>>();
			for (const f of readdirSync(dir).filter((x) => x.endsWith('.json'))) {
				const rec = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as {
					fileContents: string;
					getAllTags: string[] | null;
				};
				const path = f.replace(/\.json$/, '.md');
				files[path] = rec.fileContents;
				for (const raw of rec.getAllTags ?? []) {
					const parts = raw.replace(/^#/, '').toLowerCase().split('/');
					for (let i = 1; i <= parts.length; i++) {
						const t = parts.slice(0, i).join('/');
						expected.set(t, (expected.get(t) ?? new Set()).add(path));
					}
				}
			}
			const index = await SearchIndex.build(new MemorySource(files));
			expect(expected.size).toBeGreaterThan(5);
			for (const [tag, paths] of expected) {
				const found = (await search(index, `tag:#${tag}`, { limit: 1000 })).results.map((h) => h.path).sort();
				expect(found, `tag:#${tag}`).toEqual([...paths].sort());
			}
			// No note is tagged by search in a way Obsidian does not know.
			for (const path of Object.keys(files)) {
				const hit = (await search(index, `path:"${path}"`, { limit: 5 })).results.find((h) => h.path === path);
				for (const t of hit?.tags ?? [])
					expect(expected.get(t.replace(/^#/, '').toLowerCase())?.has(path), `${path} ${t}`).toBe(true);
			}
		},
	);
});

describe('issue 9 case 4: search names notes through the one resolver', () => {
	const notes = {
		'x/Topic.md': 'Topic one.\n',
		'y/Topic.md': 'Topic two.\n',
		'a.md': 'Links to [[x/Topic]].\n',
		'b.md': 'Links to [[y/Topic]].\n',
	};

	it('an ambiguous `backlinks:` name fails with its candidates, as the backlinks query does', async () => {
		const source = new MemorySource(notes);
		const index = await SearchIndex.build(source);
		const structural = await runQuery(source, { type: 'backlinks', target: 'Topic' }, DEFAULT_SETTINGS);
		expect(structural.status).toBe('failed');
		const r = await search(index, 'backlinks:Topic');
		expect(r.status).toBe('failed');
		expect(r.results).toEqual([]);
		expect(r.error).toMatch(/"Topic" names 2 notes/);
		expect(r.error).toContain('x/Topic.md');
		expect(r.error).toContain('y/Topic.md');
	});

	it('a path picks one of them', async () => {
		const source = new MemorySource(notes);
		const index = await SearchIndex.build(source);
		expect((await search(index, 'backlinks:x/Topic')).results.map((h) => h.path)).toEqual(['a.md']);
		expect((await search(index, 'backlinks:"y/Topic.md"')).results.map((h) => h.path)).toEqual(['b.md']);
	});
});
