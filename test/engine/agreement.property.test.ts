/**
 * Issue 9 "Must show": a cross-operation agreement property. Random small vaults (titles and
 * H1s, tag/tags/aliases spellings, duplicate names in two folders, an excluded folder, a custom
 * links key, a keyword index in a dot-folder) — for every note, the title, tags, scope membership
 * and backlinks are the same through `query`, `search` (hits) and `pack` sources, and after random
 * incremental edits the engine equals a fresh build. (The plugin face is covered by
 * test/plugin/live-index.property.test.ts and the API parity tests.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NoteResult } from '../../src/core/contract';
import { VaultEngine, type EngineConfig } from '../../src/core/engine/engine';
import { MemorySource } from '../helpers/memory-source';

const FOLDERS = ['', 'a/', 'b/', 'private/'];
const NAMES = ['Topic', 'Other', 'third-note'];
const FRONT = ['', 'tag: zebra\n', 'tags: "zebra, stripe"\n', 'tags: [zebra]\naliases: [Zed]\n', 'title: Shown Title\n', 'related: [Topic]\n', 'related: [Other]\n'];
const BODY = ['# A Heading\n\nZebra text.', 'Zebra links to [[Other]].', 'Plain zebra words. #stripe', '# Pretty\n\nZebra and [[third-note]].'];
// The keyword index is named explicitly: by default (no profile) a vault has none.
const CONFIG: EngineConfig = { settings: { excludedFolders: ['private/'], linksKey: 'related' }, search: { keywordIndexPath: '.claude/index.md' } };

const note = fc.record({ folder: fc.nat(FOLDERS.length - 1), name: fc.nat(NAMES.length - 1), front: fc.nat(FRONT.length - 1), body: fc.nat(BODY.length - 1) });

function textOf(n: { front: number; body: number }): string {
	return `${FRONT[n.front] === '' ? '' : `---\n${FRONT[n.front]}---\n`}${BODY[n.body]}\n`;
}

function vaultOf(notes: { folder: number; name: number; front: number; body: number }[]): MemorySource {
	const files: Record<string, string> = {};
	for (const n of notes) files[`${FOLDERS[n.folder]}${NAMES[n.name]}.md`] = textOf(n);
	const source = new MemorySource(files);
	source.setHidden('.claude/index.md', '## Keyword Index\n- zebra: [[Topic]]\n');
	return source;
}

/** What each operation says about each note: title, tags, backlinks; and which notes it reaches. */
async function views(engine: VaultEngine): Promise<Record<string, unknown>> {
	const byTag = await engine.query({ type: 'tag', tag: 'zebra', limit: 100 });
	const byGrep = await engine.query({ type: 'grep', pattern: 'zebra', limit: 100 });
	const hits = await engine.search('zebra', { limit: 100 });
	const tagHits = await engine.search('tag:#zebra', { limit: 100 });
	const pack = await engine.pack({ query: 'zebra', builtAt: '2026-01-01', budget: 20000 });
	const notes = byGrep.results as NoteResult[];
	// Name resolution: one resolver and one ambiguity rule for backlinks and search's backlinks:.
	const names: Record<string, unknown> = {};
	for (const name of NAMES) {
		const q = await engine.query({ type: 'backlinks', target: name, limit: 100 });
		const s = await engine.search(`backlinks:${name}`, { limit: 100 });
		names[name] = { query: q.status === 'failed' ? 'failed' : (q.results as NoteResult[]).map((n) => n.path).sort(), search: s.status === 'failed' ? 'failed' : s.results.map((h) => h.path).sort() };
	}
	return {
		names,
		grep: notes.map((n) => ({ path: n.path, title: n.title, backlinks: n.backlinks.map((b) => b.path).sort() })).sort((x, y) => x.path.localeCompare(y.path)),
		search: hits.results.map((h) => ({ path: h.path, title: h.title, backlinks: h.backlinks.map((b) => b.path).sort() })).sort((x, y) => x.path.localeCompare(y.path)),
		tagQuery: (byTag.results as NoteResult[]).map((n) => n.path).sort(),
		tagSearch: tagHits.results.map((h) => h.path).sort(),
		packPaths: [...new Set(pack.pack.map((s) => s.path))].sort(),
		keywordIndex: hits.keyword_index,
	};
}

describe('cross-operation agreement (property)', () => {
	it('title, tags, scope and backlinks agree through query, search and pack; edits equal a fresh build', async () => {
		await fc.assert(
			fc.asyncProperty(fc.array(note, { minLength: 1, maxLength: 7 }), fc.array(note, { maxLength: 5 }), async (notes, edits) => {
				const source = vaultOf(notes);
				const engine = new VaultEngine(source, CONFIG);
				const v = (await views(engine)) as { grep: { path: string }[]; search: { path: string }[]; tagQuery: string[]; tagSearch: string[]; packPaths: string[]; keywordIndex: string };
				// Title and backlinks: every note both grep and search reach is described the same.
				expect(v.search).toEqual(v.grep);
				for (const r of Object.values((v as unknown as { names: Record<string, { query: unknown; search: unknown }> }).names)) expect(r.search).toEqual(r.query);
				// Tags: Obsidian's rules through the structural query and the search filter alike.
				expect(v.tagSearch).toEqual(v.tagQuery);
				// Scope: nothing in the excluded folder reaches any operation.
				for (const list of [v.grep.map((n) => n.path), v.tagQuery, v.packPaths]) expect(list.filter((p) => p.startsWith('private/'))).toEqual([]);
				for (const p of v.packPaths) expect(v.search.map((n) => n.path)).toContain(p);
				expect(v.keywordIndex).toBe('used');
				// Incremental edits equal a fresh build.
				for (const e of edits) {
					const path = `${FOLDERS[e.folder]}${NAMES[e.name]}.md`;
					if (e.body === 0 && source.listNotes().includes(path)) {
						source.delete(path);
						await engine.remove(path);
					} else {
						source.set(path, textOf(e));
						await engine.upsert(path);
					}
				}
				expect(await views(engine)).toEqual(await views(new VaultEngine(source, CONFIG)));
			}),
			{ numRuns: 40 },
		);
	}, 120_000);
});
