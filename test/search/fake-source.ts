/**
 * A tiny in-memory NoteSource for search tests, with a minimal metadata builder (frontmatter
 * via js-yaml, headings, inline tags, wikilinks). Not a conformant parser: just enough shape.
 */
import { load } from 'js-yaml';
import type { CachedMetadata, FrontMatter, HeadingCache, LinkCache, LinkMap, Loc, TagCache } from '../../src/core/metadata';
import type { NoteSource } from '../../src/core/port';

function locAt(text: string, offset: number): Loc {
	const before = text.slice(0, offset);
	const line = before.split('\n').length - 1;
	return { line, col: offset - (before.lastIndexOf('\n') + 1), offset };
}

/** Build CachedMetadata-shaped data for a note text. */
export function fakeMetadata(text: string): CachedMetadata {
	const meta: CachedMetadata = {};
	let bodyStart = 0;
	const fm = /^---\n([\s\S]*?)\n---(?:\n|$)/.exec(text);
	if (fm) {
		const data = load(fm[1]);
		if (data && typeof data === 'object') meta.frontmatter = data as FrontMatter;
		bodyStart = fm[0].length;
		meta.frontmatterPosition = { start: locAt(text, 0), end: locAt(text, bodyStart - (fm[0].endsWith('\n') ? 1 : 0)) };
	}
	const headings: HeadingCache[] = [];
	const tags: TagCache[] = [];
	const links: LinkCache[] = [];
	for (const m of text.slice(bodyStart).matchAll(/^(#{1,6})\s+(.*)$/gm)) {
		const start = bodyStart + (m.index ?? 0);
		headings.push({ heading: m[2].trim(), level: m[1].length, position: { start: locAt(text, start), end: locAt(text, start + m[0].length) } });
	}
	for (const m of text.slice(bodyStart).matchAll(/(^|\s)(#[\p{L}\p{N}_/-]+)/gu)) {
		const start = bodyStart + (m.index ?? 0) + m[1].length;
		tags.push({ tag: m[2], position: { start: locAt(text, start), end: locAt(text, start + m[2].length) } });
	}
	for (const m of text.slice(bodyStart).matchAll(/\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]/g)) {
		const start = bodyStart + (m.index ?? 0);
		links.push({ link: m[1], original: m[0], position: { start: locAt(text, start), end: locAt(text, start + m[0].length) } });
	}
	if (headings.length) meta.headings = headings;
	if (tags.length) meta.tags = tags;
	if (links.length) meta.links = links;
	return meta;
}

/** An in-memory vault: path → text. Mutate with `set`/`delete`/`rename`. */
export class FakeSource implements NoteSource {
	readonly vaultPath = '/fake';
	readonly configDir = '.obsidian';
	readonly userIgnoreFilters: readonly string[] = [];
	private readonly texts = new Map<string, string>();
	private readonly metas = new Map<string, CachedMetadata>();

	constructor(notes: Record<string, string>) {
		for (const [p, t] of Object.entries(notes)) this.set(p, t);
	}

	set(path: string, text: string): void {
		this.texts.set(path, text);
		this.metas.set(path, fakeMetadata(text));
	}

	delete(path: string): void {
		this.texts.delete(path);
		this.metas.delete(path);
	}

	rename(from: string, to: string): void {
		const t = this.texts.get(from);
		if (t === undefined) return;
		this.delete(from);
		this.set(to, t);
	}

	listNotes(): readonly string[] {
		return [...this.texts.keys()].filter((p) => p.endsWith('.md'));
	}
	listFiles(): readonly string[] {
		return [...this.texts.keys()];
	}
	getMetadata(path: string): CachedMetadata | null {
		return this.metas.get(path) ?? null;
	}
	getFrontmatterError(): string | null {
		return null;
	}
	getSkipReason(): string | null {
		return null;
	}
	getMtime(): number | null {
		return null;
	}
	read(path: string): Promise<string> {
		const t = this.texts.get(path);
		return t === undefined ? Promise.reject(new Error(`no such note: ${path}`)) : Promise.resolve(t);
	}
	resolveLink(linkpath: string): string | null {
		const want = linkpath.toLowerCase();
		for (const p of this.texts.keys()) {
			const base = p.slice(p.lastIndexOf('/') + 1).replace(/\.md$/, '').toLowerCase();
			if (base === want || p.toLowerCase() === want || p.toLowerCase() === `${want}.md`) return p;
		}
		return null;
	}
	resolvedLinks(): LinkMap {
		const out: LinkMap = {};
		for (const [p, meta] of this.metas) {
			const row: Record<string, number> = {};
			for (const l of meta.links ?? []) {
				const dest = this.resolveLink(l.link);
				if (dest) row[dest] = (row[dest] ?? 0) + 1;
			}
			out[p] = row;
		}
		return out;
	}
	unresolvedLinks(): LinkMap {
		return {};
	}
	readConfigFile(): Promise<string | null> {
		return Promise.resolve(null);
	}
	parseYaml(text: string): unknown {
		return load(text);
	}
}
