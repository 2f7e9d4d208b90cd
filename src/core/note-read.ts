/**
 * Reading one note, or one `Note#Heading` / `Note#^block` section of it, verbatim with its line
 * range — the `note` operation the agent faces (MCP `note` tool, note resources) answer with.
 * Sections are found the way a wikilink finds them (src/core/pack/sections.ts), so whatever a
 * pack cites (`path#heading`, lines a–b) can be fetched back whole.
 */
import type { QueryResult, Status } from './contract';
import { describeNoteRef, findNote } from './note-ref';
import { parseLinktext } from './obsidian-rules';
import { LineIndex, subpathSection } from './pack/sections';
import type { NoteSource } from './port';
import { titleOf } from './note-info';

/** What to read: a note name or path, optionally with `#Heading`, `#A#B` or `#^block`; `from`/`to` 1-based lines to narrow it. */
export interface NoteReadRequest {
	note: string;
	from?: number;
	to?: number;
}

/** The one result of a note read: the text, verbatim, and where it sits in the note. */
export interface NoteText {
	path: string;
	title: string;
	/** The heading the section starts at (null for a whole note or text before the first heading). */
	heading: string | null;
	/** The block id for a `#^block` read. */
	block?: string;
	/** First and last line returned, 1-based and inclusive. */
	line_start: number;
	line_end: number;
	/** Lines of the whole note (frontmatter included), so a caller knows what a `from`/`to` can reach. */
	total_lines: number;
	text: string;
}

/** The note read envelope: the contract's shape with at most one result. */
export type NoteReadResult = QueryResult<NoteText>;

/** A failed note read naming the bad parameter. */
function failedRead(query: Record<string, unknown>, error: string, suggestions: string[] = []): NoteReadResult {
	const result: NoteReadResult = { status: 'failed', query, searched: { files: 0, folders: [] }, matched: 0, results: [], skipped: [], limitations: [], error };
	if (suggestions.length > 0) result.suggestions = suggestions;
	return result;
}

/** Checks `from`/`to` are whole lines ≥ 1 with from ≤ to; the error names the parameter. */
function lineRangeError(request: NoteReadRequest): string | null {
	for (const key of ['from', 'to'] as const) {
		const value = request[key];
		if (value !== undefined && (!Number.isInteger(value) || value < 1)) return `${key}: must be a line number ≥ 1, got ${String(value)}`;
	}
	if (request.from !== undefined && request.to !== undefined && request.from > request.to) return `from: ${request.from} is after to: ${request.to}`;
	return null;
}

/**
 * Read a note or one of its sections. Never throws for bad input: an unknown note, an unknown
 * heading or block, or a bad line range is a `failed` envelope naming the parameter.
 *
 * @example
 * await readNote(source, { note: 'Internal links#Link to a block in a note' });
 * // → results[0]: { path: 'Internal links.md', heading: 'Link to a block in a note', line_start: 40, line_end: 58, text: '## Link to…' }
 */
export async function readNote(source: NoteSource, request: NoteReadRequest): Promise<NoteReadResult> {
	const query: Record<string, unknown> = { ...request };
	const rangeError = lineRangeError(request);
	if (rangeError !== null) return failedRead(query, rangeError);
	const { path: name, subpath } = parseLinktext(request.note.trim().replace(/^\[\[|\]\]$/g, ''));
	if (name.trim() === '') return failedRead(query, 'note: give a note name or path (e.g. "Home" or "folder/Note.md#Heading")');
	const ref = findNote(source, name);
	if (ref.kind !== 'found') return failedRead(query, describeNoteRef(ref, 'note'), ref.kind === 'unknown' ? ref.suggestions : ref.candidates);
	const skip = source.getSkipReason(ref.path);
	if (skip !== null) return failedRead(query, `note: ${ref.path} is not indexed (${skip})`);
	const text = await source.read(ref.path);
	const meta = source.getMetadata(ref.path);
	const lines = new LineIndex(text);
	// A final newline ends the last line; it does not open another.
	const totalLines = lines.lineOf(Math.max(0, text.length - (text.endsWith('\n') ? 1 : 0)));
	let start = 0;
	let end = text.length;
	let heading: string | null = null;
	let block: string | undefined;
	if (subpath !== '') {
		const section = subpathSection(text, meta, subpath);
		if (section === null) {
			const known = subpath.startsWith('#^') ? Object.keys(meta?.blocks ?? {}).map((id) => `#^${id}`) : (meta?.headings ?? []).map((h) => `#${h.heading}`);
			return failedRead(query, `note: ${ref.path} has no ${subpath.startsWith('#^') ? 'block' : 'heading'} "${subpath.slice(1)}"`, known.slice(0, 20));
		}
		({ start, end, heading } = section);
		block = section.blockId;
	}
	// Whole lines of the span; a trailing newline does not open one more line.
	const firstLine = lines.lineOf(start);
	const lastLine = lines.lineOf(Math.max(start, end - (text[end - 1] === '\n' ? 1 : 0)));
	const from = Math.max(firstLine, request.from ?? firstLine);
	const to = Math.min(lastLine, request.to ?? lastLine);
	const limitations: string[] = [];
	if (from > to) return failedRead(query, `from: line ${request.from ?? from} is past the end of the ${subpath === '' ? 'note' : 'section'} (lines ${firstLine}–${lastLine})`);
	if (from > firstLine || to < lastLine) limitations.push(`Lines ${from}–${to} of ${subpath === '' ? 'the note' : 'the section'} (lines ${firstLine}–${lastLine})`);
	const all = text.split('\n');
	const result: NoteText = { path: ref.path, title: titleOf(ref.path, meta), heading, line_start: from, line_end: to, total_lines: totalLines, text: all.slice(from - 1, to).join('\n') };
	if (block !== undefined) result.block = block;
	const status: Status = 'success';
	return { status, query, searched: { files: 1, folders: [] }, matched: 1, results: [result], skipped: [], limitations };
}
