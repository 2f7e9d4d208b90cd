/**
 * The units a context pack quotes from, read off a note's `CachedMetadata`:
 * - **sections**: heading-delimited spans, each from its heading to the next heading of any
 *   level (leaf sections, so a quote points at the smallest titled part), plus the text before
 *   the first heading;
 * - **blocks**: `^block-id` targets (a paragraph, list item, quote…);
 * - **references**: `[[Note#Heading]]`, `[[Note#^block-id]]` and bare `^block-id` in a query or
 *   in a note, resolved to the section (a heading and its subsections, as Obsidian scrolls to
 *   it) or block they name;
 * - **quotable units** of a span: paragraphs, list items (marker and task box left out),
 *   blockquote and callout lines, table rows, footnote texts, fenced code blocks (quoted only
 *   for how-to questions: retrieve.ts). Headings, frontmatter, math, HTML and comments are never
 *   quoted.
 */
import type { CachedMetadata, ListItemCache, SectionCache } from '../metadata';
import { bodyStart } from '../note-info';
import { parseLinktext } from '../obsidian-rules';

/** A span of a note a pack can cite. Offsets are UTF-16 code units into the note's text. */
export interface NoteSection {
	/** The heading text, or null for the text before the first heading. */
	heading: string | null;
	/** Heading level, 0 before the first heading. */
	level: number;
	/** Offset of the span's first character (the heading line, when there is one). */
	start: number;
	/** Offset just past the span. */
	end: number;
	/** The block id when the span is a `^block-id` block. */
	blockId?: string;
}

/** A quotable piece of a span: `prose` is split into sentences, a `row` (table row) is quoted whole, `code` (a fenced block) whole or by whole lines. */
export interface QuoteUnit {
	start: number;
	end: number;
	kind: 'prose' | 'row' | 'code';
}

/** A `[[link]]` (or bare `^block-id`) written in a query or a note. */
export interface LinkRef {
	/** As written, e.g. `[[内部链接#链接到块]]`. */
	raw: string;
	/** The note part (empty for a bare `^block-id` or a `[[#heading]]` in the same note). */
	linkpath: string;
	/** `#Heading`, `#A#B` or `#^id`, or '' for the whole note. */
	subpath: string;
}

/** Sorted offsets of line starts, to turn offsets into 1-based line numbers. */
export class LineIndex {
	private readonly starts: number[] = [0];

	/** Index the line starts of `text`. */
	constructor(text: string) {
		for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
	}

	/** The 1-based line holding `offset`. */
	lineOf(offset: number): number {
		let lo = 0;
		let hi = this.starts.length - 1;
		while (lo < hi) {
			const mid = (lo + hi + 1) >> 1;
			if (this.starts[mid]! <= offset) lo = mid;
			else hi = mid - 1;
		}
		return lo + 1;
	}
}

/** Leaf sections of a note, in document order; spans holding only whitespace are left out. */
export function sectionsOf(text: string, meta: CachedMetadata | null): NoteSection[] {
	const out: NoteSection[] = [];
	const headings = meta?.headings ?? [];
	const first = bodyStart(meta);
	const preambleEnd = headings.length > 0 ? headings[0]!.position.start.offset : text.length;
	if (text.slice(first, preambleEnd).trim() !== '')
		out.push({ heading: null, level: 0, start: first, end: preambleEnd });
	headings.forEach((h, i) => {
		const end = i + 1 < headings.length ? headings[i + 1]!.position.start.offset : text.length;
		out.push({ heading: h.heading, level: h.level, start: h.position.start.offset, end });
	});
	return out;
}

/** Heading text as a link subpath compares it: case-folded, link syntax characters dropped, spaces collapsed. */
function headingKey(heading: string): string {
	return heading
		.toLowerCase()
		.replace(/[#^[\]|\\:]/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
}

/**
 * The span a `#Heading` or `#A#B` subpath names: the last heading of the chain (each found
 * after the previous one) through its subsections, or null when there is no such heading.
 */
export function headingSection(text: string, meta: CachedMetadata | null, subpath: string): NoteSection | null {
	const chain = subpath
		.split('#')
		.map(headingKey)
		.filter((k) => k !== '');
	const headings = meta?.headings ?? [];
	if (chain.length === 0) return null;
	let from = 0;
	let found = -1;
	for (const key of chain) {
		found = -1;
		for (let i = from; i < headings.length; i++) {
			if (headingKey(headings[i]!.heading) === key) {
				found = i;
				break;
			}
		}
		if (found < 0) return null;
		from = found + 1;
	}
	const h = headings[found]!;
	let end = text.length;
	for (let i = found + 1; i < headings.length; i++) {
		if (headings[i]!.level <= h.level) {
			end = headings[i]!.position.start.offset;
			break;
		}
	}
	return { heading: h.heading, level: h.level, start: h.position.start.offset, end };
}

/** The heading a position falls under, or null before the first heading. */
function headingAt(meta: CachedMetadata | null, offset: number): { heading: string; level: number } | null {
	let best: { heading: string; level: number } | null = null;
	for (const h of meta?.headings ?? []) {
		if (h.position.start.offset > offset) break;
		best = { heading: h.heading, level: h.level };
	}
	return best;
}

/** The span of a `^block-id` block (ids compare case-insensitively, as Obsidian stores them), or null. */
export function blockSection(meta: CachedMetadata | null, id: string): NoteSection | null {
	const wanted = id.replace(/^\^/, '').toLowerCase();
	// Own properties only: Obsidian's tables are plain objects, so `blocks.constructor` is Object's.
	const blocks = meta?.blocks;
	const block =
		(blocks && Object.hasOwn(blocks, wanted) ? blocks[wanted] : undefined) ??
		Object.values(blocks ?? {}).find((b) => b.id.toLowerCase() === wanted);
	if (!block) return null;
	const under = headingAt(meta, block.position.start.offset);
	return {
		heading: under?.heading ?? null,
		level: under?.level ?? 0,
		start: block.position.start.offset,
		end: block.position.end.offset,
		blockId: block.id,
	};
}

/** The span a link subpath names (`#Heading`, `#A#B`, `#^id`), or null. */
export function subpathSection(text: string, meta: CachedMetadata | null, subpath: string): NoteSection | null {
	if (subpath.startsWith('#^')) return blockSection(meta, subpath.slice(2));
	return headingSection(text, meta, subpath);
}

/** The label of a span for the pack: its heading, `^id` for a block, "(top of note)" before the first heading. */
export function sectionLabel(section: NoteSection): string {
	const heading = section.heading ?? '(top of note)';
	return section.blockId === undefined ? heading : `${section.heading ?? ''} ^${section.blockId}`.trim();
}

/**
 * `[[…]]` links with a note or subpath, and bare `^block-id` words, in a query. Display text
 * (`|…`) is dropped; embeds (`![[…]]`) count as links.
 */
export function linkRefsIn(text: string): LinkRef[] {
	const out: LinkRef[] = [];
	for (const m of text.matchAll(/!?\[\[([^\]]+?)\]\]/g)) {
		const inner = m[1]!.split('|')[0]!.trim();
		if (inner === '') continue;
		const { path, subpath } = parseLinktext(inner);
		out.push({ raw: m[0], linkpath: path.trim(), subpath: subpath.trim() });
	}
	const outside = text.replace(/!?\[\[[^\]]*\]\]/g, ' ');
	for (const m of outside.matchAll(/(?:^|\s)\^([A-Za-z0-9-]+)(?=\s|$)/g))
		out.push({ raw: `^${m[1]}`, linkpath: '', subpath: `#^${m[1]}` });
	return out;
}

/** A query with its references replaced by plain words (note name and heading), for the ranked search. */
export function withoutRefs(text: string): string {
	return text
		.replace(/!?\[\[([^\]]+?)\]\]/g, (_m, inner: string) => {
			const [target, display] = inner.split('|') as [string, string?];
			const words = (display ?? target).replace(/#\^[A-Za-z0-9-]+/g, ' ').replace(/[#^]/g, ' ');
			return ` ${words.replace(/\s+/g, ' ').trim()} `;
		})
		.replace(/(^|\s)\^[A-Za-z0-9-]+(?=\s|$)/g, '$1')
		.replace(/\s+/g, ' ')
		.trim();
}

const BLOCK_ID_TAIL = /\s+\^[A-Za-z0-9-]+\s*$/;
const LIST_MARKER = /^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]+\[.\])?(?:[ \t]+|$)/;
const QUOTE_MARKER = /^[ \t]*(?:>[ \t]?)+/;
const CALLOUT_HEADER = /^\[![^\]]*\]/;
const TABLE_DELIMITER = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
const FOOTNOTE_LABEL = /^\[\^[^\]]+\]:[ \t]*/;

/** Narrow [start, end) to its non-blank content, dropping a trailing `^block-id`; null when empty. */
function trimmed(text: string, start: number, end: number, kind: QuoteUnit['kind']): QuoteUnit | null {
	let s = start;
	let e = end;
	// Only the end of a unit can hold its block id; test a short tail, not the whole unit.
	const from = Math.max(s, e - 80);
	const tailText = text.slice(from, e);
	const tail = tailText.includes('^') ? BLOCK_ID_TAIL.exec(tailText) : null;
	if (tail) e = from + tail.index;
	while (s < e && /\s/.test(text[s]!)) s++;
	while (e > s && /\s/.test(text[e - 1]!)) e--;
	return e > s ? { start: s, end: e, kind } : null;
}

/** One unit per line of [start, end), each line first stripped by `strip` (returns the characters to skip, or -1 to skip the line). */
function lineUnits(
	text: string,
	start: number,
	end: number,
	kind: QuoteUnit['kind'],
	strip: (line: string) => number,
	out: QuoteUnit[],
): void {
	let s = start;
	while (s < end) {
		let e = text.indexOf('\n', s);
		if (e < 0 || e > end) e = end;
		const skip = strip(text.slice(s, e));
		if (skip >= 0) {
			const unit = trimmed(text, s + skip, e, kind);
			if (unit) out.push(unit);
		}
		s = e + 1;
	}
}

/** Quotable units of one root-level block (`items`: the list items inside it, for lists). */
function blockUnits(text: string, block: SectionCache, items: readonly ListItemCache[], out: QuoteUnit[]): void {
	const s = block.position.start.offset;
	const e = block.position.end.offset;
	switch (block.type) {
		case 'paragraph': {
			const unit = trimmed(text, s, e, 'prose');
			if (unit) out.push(unit);
			return;
		}
		case 'footnoteDefinition': {
			const label = FOOTNOTE_LABEL.exec(text.slice(s, Math.min(e, s + 200)));
			const unit = trimmed(text, s + (label ? label[0].length : 0), e, 'prose');
			if (unit) out.push(unit);
			return;
		}
		case 'list':
			items.forEach((li, i) => {
				const itemStart = li.position.start.offset;
				const next = i + 1 < items.length ? items[i + 1]!.position.start.offset : Infinity;
				const itemEnd = Math.min(li.position.end.offset, next, e);
				const marker = LIST_MARKER.exec(text.slice(itemStart, Math.min(itemEnd, itemStart + 40)));
				const unit = trimmed(text, itemStart + (marker ? marker[0].length : 0), itemEnd, 'prose');
				if (unit) out.push(unit);
			});
			return;
		case 'blockquote':
		case 'callout':
			lineUnits(
				text,
				s,
				e,
				'prose',
				(line) => {
					const marker = QUOTE_MARKER.exec(line);
					const skip = marker ? marker[0].length : 0;
					return CALLOUT_HEADER.test(line.slice(skip)) ? -1 : skip;
				},
				out,
			);
			return;
		case 'table':
			lineUnits(text, s, e, 'row', (line) => (TABLE_DELIMITER.test(line) ? -1 : 0), out);
			return;
		case 'code': {
			// Fenced blocks only (an indented block has no fence to quote); the pack keeps them for how-to questions.
			const unit = trimmed(text, s, e, 'code');
			if (unit && /^(?:```|~~~)/.test(text.slice(unit.start, unit.start + 3))) out.push(unit);
			return;
		}
		default:
			return; // headings, yaml, math, html, comments, thematic breaks: never quoted
	}
}

/** Paragraphs separated by blank lines, outside code fences and headings (for metadata without `sections`). */
function plainUnits(text: string, start: number, end: number, out: QuoteUnit[]): void {
	let inCode = false;
	let paraStart = -1;
	let s = start;
	const flush = (at: number): void => {
		if (paraStart < 0) return;
		const unit = trimmed(text, paraStart, at, 'prose');
		if (unit) out.push(unit);
		paraStart = -1;
	};
	while (s < end) {
		let e = text.indexOf('\n', s);
		if (e < 0 || e > end) e = end;
		const line = text.slice(s, e).trim();
		if (line.startsWith('```') || line.startsWith('~~~')) {
			flush(s);
			inCode = !inCode;
		} else if (inCode || line === '' || /^#{1,6}\s/.test(line)) flush(s);
		else if (paraStart < 0) paraStart = s;
		s = e + 1;
	}
	flush(end);
}

/**
 * Every quotable unit of a note, in document order (one pass over its blocks and list items).
 * Without `sections` metadata: blank-line paragraphs outside code fences.
 */
export function noteUnits(text: string, meta: CachedMetadata | null): QuoteUnit[] {
	const out: QuoteUnit[] = [];
	if (!meta?.sections) {
		plainUnits(text, bodyStart(meta), text.length, out);
		return out;
	}
	const items = meta.listItems ?? [];
	let next = 0;
	for (const block of meta.sections) {
		const s = block.position.start.offset;
		const e = block.position.end.offset;
		while (next < items.length && items[next]!.position.start.offset < s) next++;
		let last = next;
		while (last < items.length && items[last]!.position.start.offset < e) last++;
		blockUnits(text, block, block.type === 'list' ? items.slice(next, last) : [], out);
		next = last;
	}
	return out;
}

/** The units lying inside a span (units never straddle a heading, so leaf sections split them cleanly). */
export function unitsIn(units: readonly QuoteUnit[], span: NoteSection): QuoteUnit[] {
	let lo = 0;
	let hi = units.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (units[mid]!.start < span.start) lo = mid + 1;
		else hi = mid;
	}
	const out: QuoteUnit[] = [];
	for (let i = lo; i < units.length && units[i]!.start < span.end; i++)
		if (units[i]!.end <= span.end) out.push(units[i]!);
	return out;
}
