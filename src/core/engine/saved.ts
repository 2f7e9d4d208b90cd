/**
 * Indexes a host saved in an earlier process (the CLI's index parts beside its snapshot) and hands
 * back to an engine, each with the notes that changed since it was saved; and the trigram index's
 * build and upkeep from a NoteSource.
 */
import type { NoteSource } from '../port';
import type { SearchIndex } from '../search/search-index';
import type { SearchSettings } from '../search/settings';
import { TrigramIndex } from '../text/trigram';

/** A saved index and the note paths (created, edited, deleted, renamed) it does not reflect yet. */
export interface SavedIndex<T> {
	index: T;
	changed: readonly string[];
	/**
	 * The host brings the index's scope up to date itself, after its first answers (the engine's
	 * `refreshScope`); else the engine does before it hands the index out.
	 */
	scopeLater?: boolean;
}

/** What a host offers an engine from earlier processes (see the module comment). */
export interface SavedIndexes {
	/** The ranked-search index saved with exactly these settings, or null (none, other settings, damaged). */
	searchIndex(settings: SearchSettings): Promise<SavedIndex<SearchIndex> | null>;
	/** The saved trigram index, or null. */
	trigramIndex(): Promise<SavedIndex<TrigramIndex> | null>;
	/** The saved index of `kind` failed a check while in use (it was dropped and is being rebuilt): noted for `--verbose`. Optional. */
	damaged?(kind: 'search', reason: string): void;
	/** Whether the engine builds a trigram index when none is saved (reading every note once), to be saved for later calls. */
	readonly buildTrigrams: boolean;
}

/** Bring `path` in `index` in line with the source: re-indexed when it is a readable note, else forgotten (and then scanned). */
export async function refreshTrigrams(index: TrigramIndex, source: NoteSource, path: string): Promise<void> {
	index.forget(path);
	if (
		!path.toLowerCase().endsWith('.md') ||
		source.getSkipReason(path) !== null ||
		!source.listNotes().includes(path)
	)
		return;
	try {
		index.upsert(path, await source.read(path));
	} catch {
		// Unreadable now: left unknown, so a grep scans it and reports what it finds.
	}
}

/** A trigram index over every readable note of `source`. */
export async function buildTrigramIndex(source: NoteSource): Promise<TrigramIndex> {
	const index = new TrigramIndex();
	for (const path of source.listNotes()) {
		if (source.getSkipReason(path) !== null) continue;
		try {
			index.upsert(path, await source.read(path));
		} catch {
			// Left unknown: scanned by every grep.
		}
	}
	return index;
}

/** The indexes an engine holds that a successor can take over (see {@link carriedIndexes}). */
export interface HeldIndexes {
	/** The ranked-search index built or loaded (`VaultEngine.builtSearchIndex`), or null. */
	search: SearchIndex | null;
	/** The saved indexes the engine was handed and has not used for search (`VaultEngine.unusedSavedIndexes`), or null. */
	unused: SavedIndexes | null;
	/** The trigram index (`VaultEngine.trigrams`), or null. */
	trigrams: TrigramIndex | null;
}

/**
 * An engine's indexes handed to its successor over a newer read of the vault (a server's refresh):
 * the successor applies `changed` to them through the same path as a saved index, instead of
 * building anew. The predecessor must no longer be used: its indexes change. A search index the
 * predecessor was handed but never used (no search came between two refreshes) is handed on as
 * it was, these changes added: a refresh followed only by structural calls never pays for it.
 */
export function carriedIndexes(from: HeldIndexes, changed: readonly string[]): SavedIndexes {
	// why: the indexes are taken, not the engine: a closure over the engine would keep every earlier
	// engine (and its source) alive through each new engine's `saved`, one more per refresh.
	const { search, trigrams } = from;
	const unused = search === null ? from.unused : null;
	return {
		buildTrigrams: false,
		searchIndex: async (settings) => {
			if (search !== null)
				return JSON.stringify(search.settings) === JSON.stringify(settings) ? { index: search, changed } : null;
			const before = (await unused?.searchIndex(settings)) ?? null;
			return before === null
				? null
				: { index: before.index, changed: [...new Set([...before.changed, ...changed])] };
		},
		trigramIndex: () => Promise.resolve(trigrams !== null ? { index: trigrams, changed } : null),
	};
}
