import { baseName } from './paths';
import type { NoteSource } from './port';
import { closest } from './suggest';

/** The outcome of naming a note: found, unknown (with near names) or ambiguous (with candidates). */
export type NoteRef =
	| { kind: 'found'; path: string }
	| { kind: 'unknown'; name: string; suggestions: string[] }
	| { kind: 'ambiguous'; name: string; candidates: string[] };

/** A lookup of note paths by key (only `get` is read). */
interface PathLookup {
	get(key: string): readonly string[] | undefined;
}

/** Note paths by lower-cased path and by lower-cased file name, each list in the notes' order. */
interface NoteNames {
	byPath: PathLookup;
	byName: PathLookup;
}

/** Lists looked up once (null) or indexed; sources hand out a new list when their notes change. */
const noteNames = new WeakMap<readonly string[], NoteNames | null>();

/**
 * The name index of `notes`, built on the second lookup in the same list: a one-shot CLI call
 * scans once, while a server asking many times (MCP backlinks and links at 50k notes took
 * ~50 ms in two scans) pays one build. Null on the first lookup.
 */
function namesOf(notes: readonly string[]): NoteNames | null {
	const known = noteNames.get(notes);
	if (known !== undefined && known !== null) return known;
	if (known === undefined) {
		noteNames.set(notes, null);
		return null;
	}
	return indexNames(notes);
}

/** Index `notes` by lower-cased path and file name, and remember it for this list. */
function indexNames(notes: readonly string[]): NoteNames {
	const byPath = new Map<string, string[]>();
	const byName = new Map<string, string[]>();
	const add = (map: Map<string, string[]>, key: string, path: string): void => {
		const list = map.get(key);
		if (list) list.push(path);
		else map.set(key, [path]);
	};
	for (const path of notes) {
		const lower = path.toLowerCase();
		add(byPath, lower, path);
		add(byName, nameOf(lower), path);
	}
	const names = { byPath, byName };
	noteNames.set(notes, names);
	return names;
}

/** The lower-cased file name of a lower-cased path. */
function nameOf(lower: string): string {
	return lower.slice(lower.lastIndexOf('/') + 1);
}

/** `base` with the lists of a few keys replaced (`top`, an empty list for none), read through without a copy. */
class LayeredLookup implements PathLookup {
	private constructor(
		private readonly base: PathLookup,
		private readonly top: ReadonlyMap<string, readonly string[]>,
	) {}

	/** `from` with `changes` over it; a layer over a layer is merged into one, so lookups stay two deep. */
	static over(from: PathLookup, changes: ReadonlyMap<string, readonly string[]>): LayeredLookup {
		return from instanceof LayeredLookup
			? new LayeredLookup(from.base, new Map([...from.top, ...changes]))
			: new LayeredLookup(from, changes);
	}

	get(key: string): readonly string[] | undefined {
		return this.top.has(key) ? this.top.get(key) : this.base.get(key);
	}
}

/**
 * Gives `next` — `previous` with `added` notes put in and `removed` ones taken out, in the order
 * `order` compares notes by (the lists' order) — the name index of `previous`, when it has one,
 * with the changed keys' lists replaced: a server's refresh after a note was created or renamed
 * then answers a named note without scanning or indexing every note again.
 */
export function carryNoteNames(
	previous: readonly string[],
	next: readonly string[],
	added: readonly string[],
	removed: readonly string[],
	order: (a: string, b: string) => number,
): void {
	const names = noteNames.get(previous);
	if (names === undefined || names === null || noteNames.has(next)) return;
	const gone = new Set(removed);
	const change = (from: PathLookup, key: (lower: string) => string): PathLookup => {
		const top = new Map<string, readonly string[]>();
		for (const path of [...removed, ...added]) {
			const k = key(path.toLowerCase());
			if (top.has(k)) continue;
			const kept = (from.get(k) ?? []).filter((p) => !gone.has(p));
			const fresh = added.filter((p) => key(p.toLowerCase()) === k && !kept.includes(p));
			top.set(k, [...kept, ...fresh].sort(order));
		}
		return LayeredLookup.over(from, top);
	};
	noteNames.set(next, { byPath: change(names.byPath, (lower) => lower), byName: change(names.byName, nameOf) });
}

/** Build the name index of `notes` now (a server warming up: its first lookup then scans nothing). */
export function primeNoteNames(notes: readonly string[]): void {
	if (!noteNames.get(notes)) indexNames(notes);
}

/**
 * Find the note a user names the way a wikilink would: a bare name (`conventions`), or a vault
 * path with or without `.md` (`decisions/2026-06-20-adopt…`). Unlike link resolution inside a
 * note there is no "source folder" to break ties, so several notes with the same name are
 * reported as ambiguous rather than guessed. `suggest: false` skips the near names of an unknown
 * note (an edit-distance pass over every note name) for callers that only need found or not.
 */
export function findNote(source: NoteSource, name: string, suggest = true): NoteRef {
	const wanted = name
		.trim()
		.replace(/^\[\[|\]\]$/g, '')
		.replace(/^\/+/, '');
	const withoutExt = wanted.toLowerCase().endsWith('.md') ? wanted.slice(0, -3) : wanted;
	const notes = source.listNotes();
	const lowerPath = `${withoutExt}.md`.toLowerCase();
	const names = namesOf(notes);
	const exact =
		names === null ? notes.filter((path) => path.toLowerCase() === lowerPath) : (names.byPath.get(lowerPath) ?? []);
	if (exact.length === 1) return { kind: 'found', path: exact[0]! };
	const lowerTail = `/${lowerPath}`;
	// Only notes with the wanted file name can end with the wanted path.
	const sameName = names === null ? notes : (names.byName.get(lowerTail.slice(lowerTail.lastIndexOf('/') + 1)) ?? []);
	const bySuffix = sameName.filter((path) => `/${path.toLowerCase()}`.endsWith(lowerTail));
	if (bySuffix.length === 1) return { kind: 'found', path: bySuffix[0]! };
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
