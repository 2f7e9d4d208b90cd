/**
 * One change to the live search index: bring a path in the index in line with the source as it is
 * now (the engine queues these in the order the host saw the changes; see VaultEngine.upsert).
 */
import type { NoteSource } from '../port';
import type { ScopeRules } from '../scope';
import type { SearchIndex } from '../search/search-index';

/** Whether `source` lists `path` as a Markdown note now. */
function isNote(source: NoteSource, path: string): boolean {
	return path.toLowerCase().endsWith('.md') && source.listNotes().includes(path);
}

/** Indexed note paths inside folder `folder`. */
function indexedUnder(folder: string, index: SearchIndex): string[] {
	const prefix = `${folder}/`;
	return [...index.index.pathToDoc.keys()].filter((p) => p.startsWith(prefix));
}

/**
 * Bring `path` in `index` in line with `source`: indexed when it is a readable note in scope (the
 * scope `rules` as they are now), else removed. `text` spares the read when the host has it.
 */
export async function applyPath(
	index: SearchIndex,
	source: NoteSource,
	rules: () => ScopeRules,
	path: string,
	text?: string,
): Promise<void> {
	if (path === index.settings.keywordIndexPath || path === index.settings.synonymsPath) {
		await index.loadSideNotes(source); // Side notes steer search; they are never hits.
		return;
	}
	if (!isNote(source, path)) {
		// Gone, not a note (renamed to another extension), or a folder: what was indexed there
		// leaves, and the notes now under it (a folder renamed here) are read.
		index.remove(path);
		for (const inside of indexedUnder(path, index)) index.remove(inside);
		const prefix = `${path}/`;
		for (const note of source.listNotes()) if (note.startsWith(prefix)) await applyPath(index, source, rules, note);
		return;
	}
	if (rules().ruleFor(path) !== null || source.getSkipReason(path) !== null) {
		index.remove(path);
		return;
	}
	let body = text;
	if (body === undefined) {
		try {
			body = await source.read(path);
		} catch {
			index.remove(path);
			return;
		}
	}
	// The read awaited: the note may have gone meanwhile, and then it must not come back.
	if (!isNote(source, path)) {
		index.remove(path);
		return;
	}
	index.upsert({ path, text: body, metadata: source.getMetadata(path) });
}
