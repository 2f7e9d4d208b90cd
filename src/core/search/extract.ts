/**
 * From a note (path, text, CachedMetadata) to the texts of the index fields and the small
 * record the results need. Pure; one note at a time.
 */
import type { CachedMetadata, FrontMatter } from '../metadata';
import { bodyStart, excerptOf, hasWordsToRead, titleOf } from '../note-info';
import { getAllTags, parseFrontMatterAliases } from '../obsidian-rules';
import { baseName, folderOf } from '../paths';
import { normalKey } from '../text/normalize';
import { flattenValue, propertyValue } from '../yaml-values';
import type { SearchSettings } from './settings';

/** What the index keeps per note to filter and render results (texts are read back on demand). */
export interface DocInfo {
	path: string;
	/** File name without `.md`. */
	basename: string;
	/** Obsidian's title: the file name, or the `title` property where the note has one (note-info.ts `titleOf`). */
	title: string;
	/** Parent folder, `''` at the root. */
	folder: string;
	aliases: string[];
	/** Lower-case tags without `#`, frontmatter and inline, deduplicated. */
	tags: string[];
	frontmatter: FrontMatter;
	/** The `## Abstract` section, else the first paragraph, trimmed to `excerptChars` ('' when not kept). */
	abstract: string;
	/** `Type: permanent` (configurable). */
	synthesis: boolean;
	/** Link targets as written, deduplicated (body, embeds, frontmatter); empty when not kept. */
	forwardLinks: string[];
	/** Offset where the body starts (after frontmatter). */
	bodyStart: number;
}

/**
 * A field's text as pieces: its words are the words of each piece in order, and no word spans
 * two pieces (they stand where the text had a line break or a blanked image name). A long body
 * stays pieces of the note's own text instead of becoming a copy with the image names blanked:
 * at 50k notes those copies were hundreds of MB, promoted to the old generation while their note
 * was indexed.
 */
export type TextPieces = readonly TextPiece[];

/**
 * A piece of a field: prose, or text the index holds but a reader does not read as prose — code
 * (fenced or inline), an address (a bare URL, a link's target) or an HTML comment (hidden in
 * reading view). An unread piece's words are searchable, but never offered as typo corrections:
 * `qzqz` → `azqz` from an identifier, a host name or a comment is not a word of the vault's prose.
 */
export type TextPiece = string | UnreadPiece;

/** See {@link TextPiece}. */
export interface UnreadPiece {
	readonly unread: string;
}

/** The text of a piece, prose or not. */
export function pieceText(piece: TextPiece): string {
	return typeof piece === 'string' ? piece : piece.unread;
}

/** The texts of the six index fields, in `FIELD_NAMES` order. */
export type FieldTexts = [
	title: TextPieces,
	aliases: TextPieces,
	metadata: TextPieces,
	headings: TextPieces,
	abstract: TextPieces,
	body: TextPieces,
];

/** Aliases by Obsidian's rule (`parseFrontMatterAliases`), blanks dropped, each once. */
export function aliasesOf(fm: FrontMatter | undefined): string[] {
	return [...new Set((parseFrontMatterAliases(fm) ?? []).filter((a) => a !== ''))];
}

/** Tags by Obsidian's rule (`getAllTags`: frontmatter `tags`, then inline), NFC and lower-case, without `#`, each once. */
export function tagsOf(meta: CachedMetadata | null): string[] {
	if (!meta) return [];
	return [...new Set(getAllTags(meta).map((t) => normalKey(t.replace(/^#/, ''))))];
}

/** Properties indexed in their own fields (or that are plumbing, not content). */
const SKIPPED_PROPERTIES = new Set(['aliases', 'tags', 'title', 'cssclasses', 'cssclass', 'permalink', 'publish']);

const ABSTRACT_LINES = 10; // why: the seed reads "until next heading or 10 lines".

/**
 * The abstract: the section under a heading named like `Abstract` (up to the next heading or
 * 10 lines), else the first paragraph of the body that is prose (not a heading, embed or
 * property-looking line). Returns the raw text (unclipped).
 */
export function abstractOf(
	text: string,
	meta: CachedMetadata | null,
	start: number,
	headingNames: readonly string[],
): string {
	const headings = meta?.headings ?? [];
	const names = headingNames.map((h) => h.toLowerCase());
	for (let i = 0; i < headings.length; i++) {
		if (!names.includes(headings[i]!.heading.trim().toLowerCase())) continue;
		const from = headings[i]!.position.end.offset;
		const to = i + 1 < headings.length ? headings[i + 1]!.position.start.offset : text.length;
		return text
			.slice(from, to)
			.split('\n')
			.filter((l) => l.trim() !== '')
			.slice(0, ABSTRACT_LINES)
			.join('\n');
	}
	const para: string[] = [];
	let at = start;
	// An HTML comment is hidden in reading view: blanked (same length, so offsets hold) before the first paragraph is looked for.
	if (text.includes('<!--', start)) text = text.replace(/<!--[\s\S]*?(?:-->|$)/g, (m) => m.replace(/[^\n]/g, ' '));
	while (at < text.length) {
		let end = text.indexOf('\n', at);
		if (end < 0) end = text.length;
		const t = text.slice(at, end).trim();
		at = end + 1;
		if (t === '') {
			if (para.length > 0) break;
			continue;
		}
		if (
			para.length === 0 &&
			(t.startsWith('#') ||
				/^!\[\[[^\]]*\]\]$/.test(t) ||
				t === '---' ||
				t.startsWith('```') ||
				!hasWordsToRead(t))
		)
			continue;
		para.push(t);
		if (para.length >= ABSTRACT_LINES) break;
	}
	return para.join('\n');
}

/** Link targets of a note as written, deduplicated, body links, embeds and frontmatter links. */
export function forwardLinksOf(meta: CachedMetadata | null): string[] {
	const out = new Set<string>();
	for (const l of meta?.links ?? []) out.add(l.link);
	for (const l of meta?.embeds ?? []) out.add(l.link);
	for (const l of meta?.frontmatterLinks ?? []) out.add(l.link);
	return [...out];
}

const NO_LINKS: string[] = [];

/** Image embeds: `![[file.png|…]]` (group 1: the file) and `![alt](file.png)` (group 2: alt, group 3: the file). */
const EMBED = /!\[\[([^\]|#^]*)[^\]]*\]\]|!\[([^\]]*)\]\(\s*<?([^)\s>]*)[^)]*\)/g;
/** File types Obsidian embeds as images. */
const IMAGE_FILE = /\.(?:avif|bmp|gif|jpe?g|png|svg|webp)$/i;

/** `decodeURI`, or the text itself when it is not valid percent-encoding. */
function safeDecode(s: string): string {
	try {
		return decodeURI(s);
	} catch {
		return s;
	}
}

/**
 * A text as the index reads it, as pieces. An embedded image is seen, not read: its file name
 * (`![[lucide-calendar.svg#icon]]` in every "click the calendar icon" step of a help vault) is
 * an address, so it is left out between two pieces — a Markdown image keeps its alt text, a piece
 * of its own, which describes it.
 */
function withoutImageNames(text: string): string[] {
	if (!text.includes('![')) return [text];
	const pieces: string[] = [];
	let at = 0;
	for (const m of text.matchAll(EMBED)) {
		const [embed, wikiFile, alt, mdFile] = m;
		const file = wikiFile ?? safeDecode(mdFile ?? '');
		if (!IMAGE_FILE.test(file.trim())) continue;
		pieces.push(text.slice(at, m.index));
		if (alt !== undefined && alt !== '') pieces.push(alt);
		at = m.index + embed.length;
	}
	pieces.push(text.slice(at));
	return pieces;
}

/** A drawing's payload (Excalidraw's ```compressed-json block) or a base64 data URI: encoded bytes, never words. */
const PAYLOAD =
	/^[ \t]*(`{3,}|~{3,})[ \t]*compressed-json[^\n]*\n[\s\S]*?^[ \t]*\1[ \t]*$|data:[\w.+-]+\/[\w.+-]+;base64,[A-Za-z0-9+/=\s]*/gm;

/** A line that opens or closes a fenced code block, inside a quote or list too: group 1 is the fence, group 2 the rest of the line. */
const FENCE_LINE = /^[ \t]*(?:>[ \t]?)*(`{3,}|~{3,})([^\n]*)$/gm;
/**
 * Outside fences, what a reader does not read as prose: an HTML comment, inline code, a link's
 * target `](…)` (group 1; an image file's is left alone, see {@link withoutImageNames}), a URL
 * from its `://` (group 2; its scheme is found by looking back, so the scan only stops at `<`,
 * a backtick, `]` and `:`, never at every word).
 */
const UNREAD_INLINE = /<!--[\s\S]*?(?:-->|$)|``[^\n]*?``|`[^`\n]+`|\]\(([^)\n]*)\)|(:\/\/)[^\s<>()[\]"'`]*/g;
/** A character of a URL scheme (`https`, `obsidian`, `git+ssh`). */
const SCHEME_CHAR = /[a-z\d+.-]/i;

/** Whether a text may hold something {@link unreadSplit} separates (a cheap test that skips most notes). */
function mayHoldUnread(text: string): boolean {
	return text.includes('`') || text.includes('~~~') || text.includes('<!--') || text.includes('://');
}

/** Where the URL scheme ending at `colon` starts (a letter, then letters, digits, `+`, `.`, `-`), not before `floor`; -1 when there is none. */
function schemeStart(text: string, colon: number, floor: number): number {
	let i = colon;
	while (i > floor && SCHEME_CHAR.test(text[i - 1]!)) i--;
	while (i < colon && !/[a-z]/i.test(text[i]!)) i++;
	return i < colon ? i : -1;
}

/** The prose and unread pieces of `text` between `from` and `to`, outside fences (see {@link UNREAD_INLINE}), onto `out`. */
function inlineSplit(text: string, from: number, to: number, out: TextPiece[]): void {
	if (from >= to) return;
	const chunk = from === 0 && to === text.length ? text : text.slice(from, to);
	let at = 0;
	for (const m of chunk.matchAll(UNREAD_INLINE)) {
		let start = m.index;
		let end = start + m[0].length;
		if (m[1] !== undefined) {
			if (IMAGE_FILE.test(safeDecode(m[1].trim().replace(/^<|>$/g, '')))) continue;
			start += 2; // after `](`
			end -= 1; // before `)`
		} else if (m[2] !== undefined) {
			start = schemeStart(chunk, start, at);
			if (start < 0) continue; // `://` without a scheme: prose
		}
		if (start > at) out.push(chunk.slice(at, start));
		out.push({ unread: chunk.slice(start, end) });
		at = end;
	}
	if (at < chunk.length) out.push(at === 0 ? chunk : chunk.slice(at));
}

/** `text` as prose strings and unread pieces (see {@link TextPiece}), in order; fences first, then the inline kinds between them. */
function unreadSplit(text: string): TextPiece[] {
	if (!mayHoldUnread(text)) return [text];
	const out: TextPiece[] = [];
	let proseFrom = 0;
	if (text.includes('```') || text.includes('~~~')) {
		let open: { char: string; length: number; start: number } | null = null;
		for (const m of text.matchAll(FENCE_LINE)) {
			const fence = m[1]!;
			const rest = m[2]!;
			const lineEnd = Math.min(text.length, m.index + m[0].length + 1);
			if (open === null) {
				// A backtick fence's info string holds no backtick (```js x``` is inline code).
				if (fence[0] === '~' || !rest.includes('`'))
					open = { char: fence[0]!, length: fence.length, start: m.index };
			} else if (fence[0] === open.char && fence.length >= open.length && rest.trim() === '') {
				inlineSplit(text, proseFrom, open.start, out);
				out.push({ unread: text.slice(open.start, lineEnd) });
				proseFrom = lineEnd;
				open = null;
			}
		}
		if (open !== null) {
			// An unclosed fence runs to the end, as in CommonMark.
			inlineSplit(text, proseFrom, open.start, out);
			out.push({ unread: text.slice(open.start) });
			return out;
		}
	}
	inlineSplit(text, proseFrom, text.length, out);
	return out;
}

/**
 * A body as pieces without embedded payloads (see {@link PAYLOAD}) — their "words" are random
 * letters that would turn up as typo corrections (`qzqz` → `azqz`) — and without image names;
 * code, addresses and HTML comments are unread pieces (see {@link TextPiece}).
 */
function bodyPieces(text: string): TextPieces {
	const pieces: TextPiece[] = [];
	const add = (segment: string): void => {
		for (const piece of unreadSplit(segment)) {
			if (typeof piece === 'string') pieces.push(...withoutImageNames(piece));
			else for (const p of withoutImageNames(piece.unread)) pieces.push({ unread: p });
		}
	};
	if (!text.includes('compressed-json') && !text.includes(';base64,')) {
		add(text);
		return pieces;
	}
	let at = 0;
	for (const m of text.matchAll(PAYLOAD)) {
		add(text.slice(at, m.index));
		at = m.index + m[0].length;
	}
	add(text.slice(at));
	return pieces;
}

/**
 * The part of a note's metadata an index build reads ({@link extractNote} without its derived
 * fields, and what it calls): the frontmatter and where it ends, the tags, the headings, and of
 * `sections` only the first (where the body starts when no frontmatter position is known). The
 * plugin's index worker is handed this, not the whole metadata: copying every note's sections,
 * list items and links across threads was most of the main thread's work in a worker build (the
 * links — a build keeps no forward links — were half of what was left). A test reads the
 * metadata through a recording proxy during builds and fails when a build reads a key this
 * leaves out, or this hands over a key no build reads — change both together.
 */
export function searchMetadataOf(meta: CachedMetadata | null): CachedMetadata | null {
	if (meta === null) return null;
	const { frontmatter, frontmatterPosition, tags, headings, sections } = meta;
	const out: CachedMetadata = {};
	if (frontmatter !== undefined) out.frontmatter = frontmatter;
	if (frontmatterPosition !== undefined) out.frontmatterPosition = frontmatterPosition;
	if (tags !== undefined) out.tags = tags;
	if (headings !== undefined) out.headings = headings;
	if (sections !== undefined) out.sections = sections.slice(0, 1);
	return out;
}

/**
 * Build the DocInfo and field texts of a note. With `keepDerived` false the abstract and
 * forward links are left empty: an index built from a NoteSource recomputes them for the few
 * notes it returns, instead of holding them for every note.
 */
export function extractNote(
	path: string,
	text: string,
	meta: CachedMetadata | null,
	settings: SearchSettings,
	keepDerived = true,
): { info: DocInfo; fields: FieldTexts } {
	const fm = meta?.frontmatter ?? {};
	const basename = baseName(path);
	const title = titleOf(path, meta);
	const aliases = aliasesOf(fm);
	const tags = tagsOf(meta);
	const start = bodyStart(meta);
	const abstractRaw = abstractOf(text, meta, start, settings.abstractHeadings);
	const metaTexts: string[] = [...tags];
	const named = new Set(settings.metadataFields.map((k) => k.toLowerCase()));
	for (const key of settings.metadataFields) metaTexts.push(...flattenValue(propertyValue(fm, key)));
	if (settings.indexAllProperties) {
		// Other properties (author, genre, loc…) are note content too; links in them (`"[[Kevin Kelly]]"`) especially.
		for (const key of Object.keys(fm)) {
			const lower = key.toLowerCase();
			if (named.has(lower) || SKIPPED_PROPERTIES.has(lower)) continue;
			for (const v of flattenValue(fm[key])) if (!/^[a-z]+:\/\//i.test(v)) metaTexts.push(v);
		}
	}
	const synthesisValue = flattenValue(propertyValue(fm, settings.synthesisField)).map((v) => v.toLowerCase());
	const info: DocInfo = {
		path,
		basename,
		title,
		folder: folderOf(path),
		aliases,
		tags,
		frontmatter: fm,
		abstract: keepDerived ? excerptOf(abstractRaw, settings.excerptChars) : '',
		synthesis: synthesisValue.includes(settings.synthesisValue.toLowerCase()),
		forwardLinks: keepDerived ? forwardLinksOf(meta) : NO_LINKS,
		bodyStart: start,
	};
	const fields: FieldTexts = [
		title === basename ? [basename] : [basename, title],
		[aliases.join('\n')],
		[metaTexts.join('\n')],
		[(meta?.headings ?? []).map((h) => h.heading).join('\n')],
		bodyPieces(abstractRaw),
		bodyPieces(start === 0 ? text : text.slice(start)),
	];
	return { info, fields };
}
