import type { LinkResult, LinkSource, NoteResult } from '../core/contract';
import { linkpathOf } from '../core/link-graph';
import { linksFieldNames, titleOf as noteTitle } from '../core/note-info';
import type { NoteSource } from '../core/port';
import type { FacesHost } from './host';
import { noteTags } from './note-facts';

/**
 * What the side panel shows about one note, as plain data (no DOM): its backlinks grouped by
 * where the link sits, each with its linking lines; its outgoing links, resolved or not; its tags
 * as a tree; the notes sharing its tags. Everything comes from the engine's structural queries,
 * so the panel agrees with the commands, the CLI and the API.
 */

/** A line of a linking note that holds the link (1-based; null when only the property says so). */
export interface LinkingLine {
	line: number | null;
	text: string;
}

/** One note linking to the active note. */
export interface BacklinkRow {
	path: string;
	title: string;
	source: LinkSource;
	lines: LinkingLine[];
}

/** A node of the tag tree: `#a/b` is node `b` under node `a`. */
export interface TagNode {
	/** This level's name (`b`). */
	name: string;
	/** The full tag (`#a/b`). */
	tag: string;
	/** Whether the note carries exactly this tag (else only a nested one). */
	own: boolean;
	children: TagNode[];
}

/** A note sharing tags with the active note. */
export interface SharingRow {
	path: string;
	title: string;
	/** The active note's tags it carries (itself or nested under them). */
	shared: string[];
}

/** The side panel's picture of one note. */
export interface PanelModel {
	path: string;
	title: string;
	/** Why backlinks or links could not be listed (the index is still loading…), or null. */
	error: string | null;
	backlinks: Record<LinkSource, BacklinkRow[]>;
	outgoing: { resolved: LinkResult[]; unresolved: LinkResult[] };
	tags: TagNode[];
	sharing: SharingRow[];
}

const ALL = 1_000_000; // why: the panel lists every backlink and link; the engine's default cap is for result pages.
const MAX_LINES = 3; // why: three linking lines say how a note links; the note itself has the rest.
const MAX_SHARING = 12; // why: the closest neighbours by shared tags; a tag click lists them all.

/** The note's title by the engine's one rule (file name, or a `title` property). */
export function titleOf(source: NoteSource, path: string): string {
	return noteTitle(path, source.getMetadata(path));
}

/** The lines of `from` that link to `target`: body links and embeds, `[[…]]` properties, `links:` names. */
export async function linkingLines(
	source: NoteSource,
	from: string,
	target: string,
	linksKey: string,
): Promise<LinkingLine[]> {
	const meta = source.getMetadata(from);
	if (!meta) return [];
	let lines: string[] = [];
	try {
		lines = (await source.read(from)).split('\n');
	} catch {
		return [];
	}
	const resolves = (link: string): boolean => source.resolveLink(linkpathOf(link), from) === target;
	const out: LinkingLine[] = [];
	const seen = new Set<number>();
	const add = (line: number | null, text: string): void => {
		if (line !== null && seen.has(line)) return;
		if (line !== null) seen.add(line);
		out.push({ line: line === null ? null : line + 1, text: text.trim() });
	};
	const fmEnd = meta.frontmatterPosition?.end.line ?? -1;
	const inFrontmatter = (needle: string): number | null => {
		for (let i = 1; i < fmEnd; i++) if (lines[i]?.includes(needle)) return i;
		return null;
	};
	for (const link of meta.frontmatterLinks ?? []) {
		if (!resolves(link.link)) continue;
		const at = inFrontmatter(link.original);
		add(at, at === null ? `${link.key.split('.')[0]}: ${link.original}` : lines[at]!);
	}
	for (const name of linksFieldNames(meta.frontmatter, linksKey)) {
		if (!resolves(name)) continue;
		const at = inFrontmatter(name);
		add(at, at === null ? `${linksKey}: ${name}` : lines[at]!);
	}
	const body = [...(meta.links ?? []), ...(meta.embeds ?? [])].sort(
		(a, b) => a.position.start.offset - b.position.start.offset,
	);
	for (const link of body)
		if (resolves(link.link)) add(link.position.start.line, lines[link.position.start.line] ?? link.original);
	return out.slice(0, MAX_LINES);
}

/** The tag tree of a note's tags (`#a`, `#a/b`, `#c/d` → a › b, c › d), ordered by name. */
export function tagTree(tags: readonly string[]): TagNode[] {
	const roots: TagNode[] = [];
	for (const tag of tags) {
		const parts = tag
			.replace(/^#/, '')
			.split('/')
			.filter((p) => p !== '');
		let level = roots;
		parts.forEach((name, i) => {
			const full = `#${parts.slice(0, i + 1).join('/')}`;
			let node = level.find((n) => n.name.toLowerCase() === name.toLowerCase());
			if (!node) {
				node = { name, tag: full, own: false, children: [] };
				level.push(node);
			}
			if (i === parts.length - 1) node.own = true;
			level = node.children;
		});
	}
	const sort = (nodes: TagNode[]): TagNode[] => {
		nodes.sort((a, b) => a.name.localeCompare(b.name));
		for (const n of nodes) sort(n.children);
		return nodes;
	};
	return sort(roots);
}

/** Notes carrying the note's tags (or tags nested under them), most shared first. */
async function sharingTags(host: FacesHost, path: string, tags: readonly string[]): Promise<SharingRow[]> {
	const shared = new Map<string, string[]>();
	for (const tag of tags) {
		const result = await host.query({ type: 'tag', tag, limit: ALL });
		if (result.status === 'failed') continue;
		for (const row of result.results) {
			if (!('path' in row) || row.path === path) continue;
			shared.set(row.path, [...(shared.get(row.path) ?? []), tag]);
		}
	}
	return [...shared]
		.map(([p, list]) => ({ path: p, title: titleOf(host.source, p), shared: list }))
		.sort((a, b) => b.shared.length - a.shared.length || a.path.localeCompare(b.path))
		.slice(0, MAX_SHARING);
}

/** Everything the panel shows about `path`. */
export async function buildPanelModel(host: FacesHost, path: string, linksKey: string): Promise<PanelModel> {
	const model: PanelModel = {
		path,
		title: titleOf(host.source, path),
		error: null,
		backlinks: { body: [], frontmatter: [], both: [] },
		outgoing: { resolved: [], unresolved: [] },
		tags: [],
		sharing: [],
	};
	const back = await host.query({ type: 'backlinks', target: path, limit: ALL });
	const links = await host.query({ type: 'links', source: path, limit: ALL });
	model.error =
		back.status === 'failed'
			? (back.error ?? 'backlinks could not be listed')
			: links.status === 'failed'
				? (links.error ?? 'links could not be listed')
				: null;
	for (const row of back.results as NoteResult[]) {
		const source = row.source ?? 'body';
		model.backlinks[source].push({
			path: row.path,
			title: row.title,
			source,
			lines: await linkingLines(host.source, row.path, path, linksKey),
		});
	}
	for (const link of links.results as LinkResult[])
		(link.resolved === null ? model.outgoing.unresolved : model.outgoing.resolved).push(link);
	const tags = noteTags(host.source, path);
	model.tags = tagTree(tags);
	model.sharing = await sharingTags(host, path, tags);
	return model;
}
