import { makeContext, passingContext, type QueryContext } from '../query/context';
import { folderPrefix } from '../paths';
import type { NoteSource } from '../port';
import { ScopeError } from '../scope';
import type { ReaderSettings } from './types';

/** The reader's scope: the engine's query context, plus the report's folder lines. */
export interface ReaderScope {
	ctx: QueryContext;
	/** Folder prefixes searched, in the caller's order; empty for the whole vault. */
	folders: string[];
	/** Report lines: default folders missing, folders not searched. */
	limitations: string[];
}

/** Whether any note of the vault lies under `prefix`. */
function exists(source: NoteSource, prefix: string): boolean {
	return source.listNotes().some((path) => path.startsWith(prefix));
}

/** The top-level folder of a path (`a/b/c.md` → `a/`), or `(vault root)`. */
function topFolder(path: string): string {
	const slash = path.indexOf('/');
	return slash < 0 ? '(vault root)' : path.slice(0, slash + 1);
}

/** Top-level folders (and root notes) of the vault with no note in scope, for "Folders not searched". */
function notSearched(source: NoteSource, inScope: readonly string[]): string[] {
	const searched = new Set(inScope.map(topFolder));
	return [...new Set(source.listNotes().map(topFolder))].filter((folder) => !searched.has(folder)).sort();
}

/** `Notes/` → `Notes/ (notes/ differs only in case)` when such a folder exists: folder names are case-sensitive. */
function withCaseHint(source: NoteSource, prefix: string): string {
	const lower = prefix.toLowerCase();
	const near = source.listNotes().find((path) => path.toLowerCase().startsWith(lower));
	return near === undefined ? prefix : `${prefix} (${near.slice(0, prefix.length)} differs only in case)`;
}

/**
 * Which notes the call reads. `['all']` is the whole vault (minus the engine's exclusions); named
 * folders must exist (ScopeError naming the missing one); with none named, the default folders
 * that exist — and the whole vault when none does, said under Limitations, because a vault
 * without the seed's layout is still worth reading. `pass`: a full answer's one look at each note
 * (`passingContext`).
 */
export function readerScope(
	source: NoteSource,
	settings: ReaderSettings,
	folders: readonly string[] | undefined,
	pass = false,
): ReaderScope {
	const limitations: string[] = [];
	let wanted: string[] | undefined;
	if (folders !== undefined && folders.length > 0) {
		const all = folders.some((folder) => folder.trim().toLowerCase() === 'all');
		if (all && folders.length > 1)
			throw new ScopeError('folders: "all" stands alone; it already includes every folder');
		wanted = all ? undefined : [...folders];
	} else if (settings.defaultFolders.length > 0) {
		const defaults = settings.defaultFolders.map(folderPrefix);
		const present = defaults.filter((prefix) => exists(source, prefix));
		const missing = defaults.filter((prefix) => !present.includes(prefix));
		if (present.length === 0) {
			limitations.push(
				`Default folders ${defaults.join(', ')} are not in this vault: searched the whole vault instead`,
			);
		} else {
			wanted = present;
			if (missing.length > 0)
				limitations.push(
					`Default folder${missing.length > 1 ? 's' : ''} ${missing.map((prefix) => withCaseHint(source, prefix)).join(', ')} not in this vault`,
				);
		}
	}
	const ctx = pass ? passingContext(source, settings.engine, wanted) : makeContext(source, settings.engine, wanted);
	const outside = notSearched(source, ctx.scope.notes);
	if (outside.length > 0) limitations.push(`Folders not searched: ${outside.join(', ')}`);
	limitations.push(...ctx.scope.exclusions);
	return { ctx, folders: [...ctx.scope.folders], limitations };
}
