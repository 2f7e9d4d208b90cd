/**
 * The random small vaults of the cross-operation agreement property (issue 9) and what each
 * operation says about their notes — shared by the engine's property test (test/engine) and the
 * same property through the plugin over the fake app (test/plugin).
 */
import fc from 'fast-check';
import type { NoteResult } from '../../src/core/contract';
import type { ContextPack, PackRequest } from '../../src/core/pack/pack';
import type { StructuredResult } from '../../src/core/query/run';
import type { StructuredQuery } from '../../src/core/query/types';
import type { SearchResult } from '../../src/core/search/search';

/** Folders notes land in; `private/` is excluded by the settings below. */
export const FOLDERS = ['', 'a/', 'b/', 'private/'];
/** Note names; the same name in two folders makes an ambiguous reference. */
export const NAMES = ['Topic', 'Other', 'third-note'];
const FRONT = [
	'',
	'tag: zebra\n',
	'tags: "zebra, stripe"\n',
	'tags: [zebra]\naliases: [Zed]\n',
	'title: Shown Title\n',
	'related: [Topic]\n',
	'related: [Other]\n',
];
const BODY = [
	'# A Heading\n\nZebra text.',
	'Zebra links to [[Other]].',
	'Plain zebra words. #stripe',
	'# Pretty\n\nZebra and [[third-note]].',
];
/** The keyword index, in a dot-folder (read as a side file by explicit path). */
export const KEYWORD_INDEX = { path: '.claude/index.md', text: '## Keyword Index\n- zebra: [[Topic]]\n' };
/** The settings both faces use: an excluded folder, a custom links key, the keyword index path. */
export const AGREEMENT_SETTINGS = {
	excludedFolders: ['private/'],
	linksKey: 'related',
	keywordIndexPath: KEYWORD_INDEX.path,
};

/** One random note: indexes into the tables above. */
export interface NoteSpec {
	folder: number;
	name: number;
	front: number;
	body: number;
}

/** A random note. */
export const noteSpec: fc.Arbitrary<NoteSpec> = fc.record({
	folder: fc.nat(FOLDERS.length - 1),
	name: fc.nat(NAMES.length - 1),
	front: fc.nat(FRONT.length - 1),
	body: fc.nat(BODY.length - 1),
});

/** The vault path of a note. */
export function pathOf(n: NoteSpec): string {
	return `${FOLDERS[n.folder]}${NAMES[n.name]}.md`;
}

/** The text of a note. */
export function textOf(n: Pick<NoteSpec, 'front' | 'body'>): string {
	return `${FRONT[n.front] === '' ? '' : `---\n${FRONT[n.front]}---\n`}${BODY[n.body]}\n`;
}

/** The files of a vault of random notes (a later note at the same path wins). */
export function filesOf(notes: readonly NoteSpec[]): Record<string, string> {
	const files: Record<string, string> = {};
	for (const n of notes) files[pathOf(n)] = textOf(n);
	return files;
}

/** Whether an edit deletes its note (body 0 on an existing note) rather than writing it. */
export function deletes(edit: NoteSpec, existing: readonly string[]): boolean {
	return edit.body === 0 && existing.includes(pathOf(edit));
}

/** A face's way to change one note of a vault on disk or in an app. */
export interface EditTarget {
	/** Write `text` at `path`; `existed` says whether the note was there before. */
	write(path: string, text: string, existed: boolean): void;
	remove(path: string): void;
}

/** Apply random edits to `files` (path → text) and tell the face about each change. */
export function applyEdits(edits: readonly NoteSpec[], files: Record<string, string>, target: EditTarget): void {
	for (const e of edits) {
		const path = pathOf(e);
		if (deletes(e, Object.keys(files))) {
			delete files[path];
			target.remove(path);
		} else {
			const existed = path in files;
			files[path] = textOf(e);
			target.write(path, files[path], existed);
		}
	}
}

/** What the views ask: the engine, or the plugin's engine (gated the way the plugin's faces are). */
export interface Answering {
	query(query: StructuredQuery): Promise<StructuredResult>;
	search(text: string, options: { limit: number }): Promise<SearchResult>;
	pack(request: PackRequest): Promise<ContextPack>;
}

/** What the views of one vault hold. */
export interface Views {
	names: Record<string, { query: unknown; search: unknown }>;
	grep: { path: string; title: string; backlinks: string[] }[];
	search: { path: string; title: string; backlinks: string[] }[];
	tagQuery: string[];
	tagSearch: string[];
	packPaths: string[];
	keywordIndex: string;
}

/** What each operation says about each note: title, tags, backlinks; and which notes it reaches. */
export async function views(engine: Answering): Promise<Views> {
	const byTag = await engine.query({ type: 'tag', tag: 'zebra', limit: 100 });
	const byGrep = await engine.query({ type: 'grep', pattern: 'zebra', limit: 100 });
	const hits = await engine.search('zebra', { limit: 100 });
	const tagHits = await engine.search('tag:#zebra', { limit: 100 });
	const pack = await engine.pack({ query: 'zebra', builtAt: '2026-01-01', budget: 20000 });
	const notes = byGrep.results as NoteResult[];
	// Name resolution: one resolver and one ambiguity rule for backlinks and search's backlinks:.
	const names: Views['names'] = {};
	for (const name of NAMES) {
		const q = await engine.query({ type: 'backlinks', target: name, limit: 100 });
		const s = await engine.search(`backlinks:${name}`, { limit: 100 });
		names[name] = {
			query: q.status === 'failed' ? 'failed' : (q.results as NoteResult[]).map((n) => n.path).sort(),
			search: s.status === 'failed' ? 'failed' : s.results.map((h) => h.path).sort(),
		};
	}
	const byPath = (x: { path: string }, y: { path: string }): number => x.path.localeCompare(y.path);
	return {
		names,
		grep: notes
			.map((n) => ({ path: n.path, title: n.title, backlinks: n.backlinks.map((b) => b.path).sort() }))
			.sort(byPath),
		search: hits.results
			.map((h) => ({ path: h.path, title: h.title, backlinks: h.backlinks.map((b) => b.path).sort() }))
			.sort(byPath),
		tagQuery: (byTag.results as NoteResult[]).map((n) => n.path).sort(),
		tagSearch: tagHits.results.map((h) => h.path).sort(),
		packPaths: [...new Set(pack.pack.map((s) => s.path))].sort(),
		keywordIndex: hits.keyword_index,
	};
}

/** The agreements every view of one vault must show, whichever face answered. */
export function expectAgreement(
	v: Views,
	expect: (actual: unknown) => {
		toEqual(expected: unknown): void;
		toContain(item: unknown): void;
		toBe(expected: unknown): void;
	},
): void {
	// Title and backlinks: every note both grep and search reach is described the same.
	expect(v.search).toEqual(v.grep);
	for (const r of Object.values(v.names)) expect(r.search).toEqual(r.query);
	// Tags: Obsidian's rules through the structural query and the search filter alike.
	expect(v.tagSearch).toEqual(v.tagQuery);
	// Scope: nothing in the excluded folder reaches any operation.
	for (const list of [v.grep.map((n) => n.path), v.tagQuery, v.packPaths])
		expect(list.filter((p) => p.startsWith('private/'))).toEqual([]);
	for (const p of v.packPaths) expect(v.search.map((n) => n.path)).toContain(p);
	expect(v.keywordIndex).toBe('used');
}
