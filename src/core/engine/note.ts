/**
 * The engine's `note` operation: a note, or one `#Heading` / `#^block` section of it, verbatim,
 * with its 1-based line range — what an agent asks for after a search or a pack cites a source.
 */
import type { QueryResult } from '../contract';
import { failed } from '../query/envelope';
import { describeNoteRef, findNote } from '../note-ref';
import { titleOf } from '../note-info';
import { parseLinktext } from '../obsidian-rules';
import { LineIndex, sectionLabel, subpathSection } from '../pack/sections';
import type { NoteSource } from '../port';
import type { ScopeRules } from '../scope';

/** What to read: `Note`, `folder/Note.md`, `Note#Heading`, `Note#A#B`, `Note#^block-id` (with or without `[[ ]]`). */
export interface NoteRequest {
	ref: string;
	/** First line to return (1-based file line; must lie inside the note or section). */
	from?: number;
	/** Last line to return (inclusive). */
	to?: number;
}

/** The text of a note or section. */
export interface NoteText {
	path: string;
	title: string;
	/** The section's heading (`Heading ^id` for a block), or null for the whole note. */
	section: string | null;
	/** First and last line returned, 1-based and inclusive, as in the file. */
	lines: [number, number];
	/** Lines in the whole file. */
	total_lines: number;
	/** The lines, exactly as in the file. */
	text: string;
}

/** The envelope of a `note` call (one result, or `failed` naming the bad parameter). */
export type NoteAnswer = QueryResult<NoteText>;

/** Split a reference into the note name and the subpath (`#Heading`, `#^id`, or ''). */
function splitRef(ref: string): { name: string; subpath: string } {
	const inner = ref
		.trim()
		.replace(/^!?\[\[/, '')
		.replace(/\]\]$/, '');
	const bar = inner.indexOf('|');
	const { path, subpath } = parseLinktext(bar < 0 ? inner : inner.slice(0, bar));
	return { name: path.trim(), subpath: subpath.trim() };
}

/** Offsets of the first character of each line, plus the text length as a sentinel. */
function lineStarts(text: string): number[] {
	const starts = [0];
	for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
	return starts;
}

/** A line number parameter: absent, or a whole number from 1. */
function validLine(value: number | undefined, name: string): string | null {
	if (value === undefined) return null;
	return Number.isInteger(value) && value >= 1 ? null : `${name}: a line number (1 or more), got ${String(value)}`;
}

/**
 * Read a note or section verbatim. Notes outside the engine's scope (excluded folders, the config
 * folder, Excluded files) are refused like unknown ones: what no query shows, no read returns.
 */
export async function readNote(source: NoteSource, rules: ScopeRules, request: NoteRequest): Promise<NoteAnswer> {
	const echo: Record<string, unknown> = { ...request };
	const bad = validLine(request.from, 'from') ?? validLine(request.to, 'to');
	if (bad !== null) return failed(echo, bad);
	if (request.from !== undefined && request.to !== undefined && request.from > request.to)
		return failed(echo, `from: ${request.from} is after to: ${request.to}`);
	const { name, subpath } = splitRef(request.ref);
	if (name === '') return failed(echo, 'ref: name a note, e.g. "Note", "Note#Heading" or "Note#^block-id"');
	const found = findNote(source, name);
	if (found.kind !== 'found')
		return failed(
			echo,
			describeNoteRef(found, 'ref'),
			found.kind === 'unknown' ? found.suggestions : found.candidates,
		);
	const path = found.path;
	const rule = rules.ruleFor(path);
	if (rule !== null) return failed(echo, `ref: ${path} is excluded from searches (${rule})`);
	const skip = source.getSkipReason(path);
	if (skip !== null) return failed(echo, `ref: ${path} cannot be read: ${skip}`);
	const text = await source.read(path);
	const meta = source.getMetadata(path);
	const starts = lineStarts(text);
	const total = text.endsWith('\n') ? starts.length - 1 : starts.length;
	let first = 1;
	let last = Math.max(1, total);
	let label: string | null = null;
	if (subpath !== '' && subpath !== '#') {
		const section = subpathSection(text, meta, subpath);
		if (section === null)
			return failed(
				echo,
				`ref: no ${subpath.startsWith('#^') ? 'block' : 'heading'} "${subpath.slice(1)}" in ${path}`,
			);
		const lines = new LineIndex(text);
		first = lines.lineOf(section.start);
		last = Math.max(first, lines.lineOf(Math.max(section.start, section.end - 1)));
		// A section ends where the next heading starts: blank lines before it are not its text.
		while (last > first && text.slice(starts[last - 1], starts[last] ?? text.length).trim() === '') last--;
		label = sectionLabel(section);
	}
	if ((request.from ?? first) > last || (request.to ?? last) < first)
		return failed(
			echo,
			`from/to: lines ${request.from ?? first}–${request.to ?? last} lie outside ${label === null ? path : `"${label}"`} (lines ${first}–${last})`,
		);
	first = Math.max(first, request.from ?? first);
	last = Math.min(last, request.to ?? last);
	const end = last < starts.length ? starts[last] : text.length;
	const body = text.slice(starts[first - 1], end).replace(/\r?\n$/, '');
	const result: NoteText = {
		path,
		title: titleOf(path, meta),
		section: label,
		lines: [first, last],
		total_lines: total,
		text: body,
	};
	return {
		status: 'success',
		query: echo,
		searched: { files: 1, folders: [path] },
		matched: 1,
		results: [result],
		skipped: [],
		limitations: [],
	};
}
