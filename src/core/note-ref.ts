import { baseName } from './paths';
import type { NoteSource } from './port';
import { closest } from './suggest';

/** The outcome of naming a note: found, unknown (with near names) or ambiguous (with candidates). */
export type NoteRef =
	| { kind: 'found'; path: string }
	| { kind: 'unknown'; name: string; suggestions: string[] }
	| { kind: 'ambiguous'; name: string; candidates: string[] };

/**
 * Find the note a user names the way a wikilink would: a bare name (`conventions`), or a vault
 * path with or without `.md` (`decisions/2026-06-20-adopt…`). Unlike link resolution inside a
 * note there is no "source folder" to break ties, so several notes with the same name are
 * reported as ambiguous rather than guessed. `suggest: false` skips the near names of an unknown
 * note (an edit-distance pass over every note name) for callers that only need found or not.
 */
export function findNote(source: NoteSource, name: string, suggest = true): NoteRef {
	const wanted = name.trim().replace(/^\[\[|\]\]$/g, '').replace(/^\/+/, '');
	const withoutExt = wanted.toLowerCase().endsWith('.md') ? wanted.slice(0, -3) : wanted;
	const notes = source.listNotes();
	const lowerPath = `${withoutExt}.md`.toLowerCase();
	const exact = notes.filter((path) => path.toLowerCase() === lowerPath);
	if (exact.length === 1) return { kind: 'found', path: exact[0] };
	const lowerTail = `/${lowerPath}`;
	const bySuffix = notes.filter((path) => `/${path.toLowerCase()}`.endsWith(lowerTail));
	if (bySuffix.length === 1) return { kind: 'found', path: bySuffix[0] };
	if (bySuffix.length > 1) return { kind: 'ambiguous', name, candidates: bySuffix };
	const resolved = source.resolveLink(withoutExt, '');
	if (resolved !== null && resolved.toLowerCase().endsWith('.md')) return { kind: 'found', path: resolved };
	return { kind: 'unknown', name, suggestions: suggest ? closest(baseName(withoutExt), notes.map(baseName)) : [] };
}

/** A one-line message for an unknown or ambiguous note name. */
export function describeNoteRef(ref: Exclude<NoteRef, { kind: 'found' }>, parameter: string): string {
	if (ref.kind === 'ambiguous') {
		return `${parameter}: "${ref.name}" names ${ref.candidates.length} notes — give a path: ${ref.candidates.join(', ')}`;
	}
	const hint = ref.suggestions.length > 0 ? `; did you mean ${ref.suggestions.map((s) => `"${s}"`).join(', ')}?` : '';
	return `${parameter}: no note named "${ref.name}" in this vault${hint}`;
}
