/**
 * One change to the live search index: bring a path in the index in line with the source as it is
 * now (the engine queues these in the order the host saw the changes; see VaultEngine.upsert).
 */
import type { NoteSource } from '../port';
import type { ScopeRules } from '../scope';
import type { NoteInput } from '../search/inverted-index';
import type { SearchIndex } from '../search/search-index';
import { BlocksNotDecoded } from '../search/term-dictionary';

/** How a change's upsert runs on a host's main thread (VaultEngine.changeSteps); without it, in one go. */
export interface ChangeSteps {
	/** Runs the upsert's steps (in the host's time slices). */
	run: <T>(steps: Generator<void, T, void>) => Promise<T>;
	/** Saved dictionary blocks decoded per step at most. */
	blocks: number;
}

/**
 * `index.upsert(note)` in steps, decoding at most `blocks` of a restored index's saved dictionary
 * per step: a step that needs more stops before the index changes (TermDictionary.decodeAtMost)
 * and runs again after the pause, finding the blocks it decoded. A note whose words all lie in
 * decoded blocks (most, once a few notes are in) is one step.
 */
export function* upsertSteps(index: SearchIndex, note: NoteInput, blocks: number): Generator<void, void, void> {
	const terms = index.index.terms;
	for (;;) {
		terms.decodeAtMost(blocks);
		try {
			index.upsert(note);
			return;
		} catch (error) {
			if (!(error instanceof BlocksNotDecoded)) throw error;
		} finally {
			terms.decodeAtMost(Infinity);
		}
		yield;
	}
}

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
 * scope `rules` as they are now), else removed. `text` spares the read when the host has it;
 * `steps`: the upsert runs in the host's steps.
 */
export async function applyPath(
	index: SearchIndex,
	source: NoteSource,
	rules: () => ScopeRules,
	path: string,
	text?: string,
	steps?: ChangeSteps,
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
		for (const note of source.listNotes())
			if (note.startsWith(prefix)) await applyPath(index, source, rules, note, undefined, steps);
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
	const note = { path, text: body, metadata: source.getMetadata(path) };
	if (steps === undefined) index.upsert(note);
	else await steps.run(upsertSteps(index, note, steps.blocks));
}
