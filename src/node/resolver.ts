/**
 * Obsidian's `metadataCache.getFirstLinkpathDest` reproduced over a plain list of vault files,
 * following shared/OBSIDIAN-METADATA.md ("Link resolution"). The numbered steps below are the
 * doc's; the conformance corpus (shared/conformance/obsidian-1.9) is the judge for steps 1–5.
 *
 * Derived, not recorded (no captured Obsidian output covers these; see test/node):
 * - Lookup keys are NFC-normalised before lower-casing. macOS often stores names in NFD while
 *   typed links are NFC; Obsidian shows such files as one, so we make both sides meet. The path
 *   we return is always the file's own spelling.
 * - Ties in step 7 (same group, same path length) are broken by lower-cased path, then by the
 *   exact path, so the answer never depends on the order files were added.
 * - "Inside the source's folder" (step 7) means the source's folder or any folder below it.
 * - Step 7's "ends with" is a plain suffix test, as the doc states it (`b/note` matches
 *   `ab/note.md`).
 */
import { fileName, folderOf } from '../core/paths';
import { LayeredMap } from './snapshot/layered-map';

/** One vault file with the keys the lookups compare against, computed once. */
interface FileEntry {
	/** The path exactly as the vault has it (returned to callers). */
	readonly path: string;
	/** NFC, lower-cased path: what links are compared with. */
	readonly key: string;
}

/** NFC then lower case: the comparison key for paths and linkpaths (see the module comment). */
function lookupKey(s: string): string {
	return s.normalize('NFC').toLowerCase();
}

/** The name key a file or linkpath is looked up by: the last segment of its lookup key (see the module comment). */
export function nameKeyOf(path: string): string {
	return fileName(lookupKey(path));
}

/** Deterministic candidate order: shorter paths first, then by key, then by exact path. */
function compareEntries(a: FileEntry, b: FileEntry): number {
	if (a.path.length !== b.path.length) return a.path.length - b.path.length;
	if (a.key !== b.key) return a.key < b.key ? -1 : 1;
	if (a.path !== b.path) return a.path < b.path ? -1 : 1;
	return 0;
}

/**
 * Joins a `./` or `../` linkpath (already a lookup key) onto the source's folder, or returns null
 * when it climbs above the vault root.
 */
function resolveRelative(folderKey: string, linkKey: string): string | null {
	const parts = folderKey === '' ? [] : folderKey.split('/');
	for (const segment of linkKey.split('/')) {
		if (segment === '.' || segment === '') continue;
		if (segment === '..') {
			if (parts.length === 0) return null;
			parts.pop();
		} else {
			parts.push(segment);
		}
	}
	return parts.join('/');
}

/** Anything that can answer Obsidian's `getFirstLinkpathDest` (the resolver, or a fake). */
export interface LinkpathResolver {
	/** The file `linkpath` (a link without its `#subpath`) points to from `sourcePath`, or null. */
	getFirstLinkpathDest(linkpath: string, sourcePath: string): string | null;
}

/** Obsidian-compatible link resolution over every file of a vault (notes and attachments). */
export class LinkResolver implements LinkpathResolver {
	/**
	 * Candidates by lower-cased NFC file name, each list kept in `compareEntries` order. A list is
	 * never changed in place (a change puts a new one, layered over the maps of the resolver it
	 * was derived from), so a resolver derived by `withChanges` shares every list it does not change.
	 */
	private byName: ReadonlyMap<string, readonly FileEntry[]>;
	/** Every file by its exact path. */
	private byPath: ReadonlyMap<string, FileEntry>;

	/** Indexes `files` (vault-relative, `/`-separated, every file type). */
	constructor(files: Iterable<string>) {
		const byName = new Map<string, FileEntry[]>();
		const byPath = new Map<string, FileEntry>();
		for (const path of files) {
			if (byPath.has(path)) continue;
			const entry: FileEntry = { path, key: lookupKey(path) };
			byPath.set(path, entry);
			const name = fileName(entry.key);
			const list = byName.get(name);
			if (list) list.push(entry);
			else byName.set(name, [entry]);
		}
		// Sorting once after a bulk load is cheaper than sorted inserts.
		for (const list of byName.values()) list.sort(compareEntries);
		this.byName = byName;
		this.byPath = byPath;
	}

	/**
	 * This resolver with `added` files indexed and `removed` ones taken out, this one unchanged
	 * (a server's refresh after notes were created, deleted or renamed): the new one reads through
	 * this one's maps with the changed names and paths over them, so it costs what changed, not a
	 * copy of the maps (~140 ms at 13k files on a loaded machine).
	 */
	withChanges(added: Iterable<string>, removed: Iterable<string>): LinkResolver {
		const next = new LinkResolver([]);
		next.byName = this.byName;
		next.byPath = this.byPath;
		next.change(added, removed);
		return next;
	}

	/** Takes `removed` out and indexes `added`; returns how many of each it did (a file already indexed is not added again). */
	private change(added: Iterable<string>, removed: Iterable<string>): { added: number; removed: number } {
		const lists = new Map<string, readonly FileEntry[]>();
		const entries = new Map<string, FileEntry>();
		const gone = new Set<string>();
		const listOf = (name: string): readonly FileEntry[] => lists.get(name) ?? this.byName.get(name) ?? [];
		const done = { added: 0, removed: 0 };
		for (const path of removed) {
			const entry = entries.get(path) ?? (gone.has(path) ? undefined : this.byPath.get(path));
			if (entry === undefined) continue;
			entries.delete(path);
			gone.add(path);
			done.removed++;
			const name = fileName(entry.key);
			lists.set(
				name,
				listOf(name).filter((other) => other !== entry),
			);
		}
		for (const path of added) {
			if (entries.has(path) || (!gone.has(path) && this.byPath.has(path))) continue;
			const entry: FileEntry = { path, key: lookupKey(path) };
			entries.set(path, entry);
			gone.delete(path);
			done.added++;
			const name = fileName(entry.key);
			const list = listOf(name);
			let at = list.findIndex((other) => compareEntries(entry, other) < 0);
			if (at < 0) at = list.length;
			lists.set(name, [...list.slice(0, at), entry, ...list.slice(at)]);
		}
		const kept = new Map([...lists].filter(([, list]) => list.length > 0));
		const emptied = [...lists.keys()].filter((name) => !kept.has(name));
		this.byName = LayeredMap.over(this.byName, kept, emptied);
		this.byPath = LayeredMap.over(this.byPath, entries, gone);
		return done;
	}

	/** The files whose name key (`nameKeyOf`) is `name`, in candidate order. */
	filesNamed(name: string): readonly string[] {
		return (this.byName.get(name) ?? []).map((entry) => entry.path);
	}

	/** Number of files indexed. */
	get size(): number {
		return this.byPath.size;
	}

	/** True when `path` is an indexed file (exact spelling). */
	hasFile(path: string): boolean {
		return this.byPath.has(path);
	}

	/** Adds a file; returns false when it was already indexed. */
	addFile(path: string): boolean {
		return this.change([path], []).added > 0;
	}

	/** Removes a file; returns false when it was not indexed. */
	removeFile(path: string): boolean {
		return this.change([], [path]).removed > 0;
	}

	/** Moves a file from `oldPath` to `newPath`; returns false when `oldPath` was not indexed. */
	renameFile(oldPath: string, newPath: string): boolean {
		if (!this.removeFile(oldPath)) return false;
		this.addFile(newPath);
		return true;
	}

	/** Obsidian's `getFirstLinkpathDest`: the file `linkpath` resolves to from `sourcePath`, or null. */
	getFirstLinkpathDest(linkpath: string, sourcePath: string): string | null {
		// 1. `[[#heading]]` has an empty linkpath: a link to the source itself.
		if (linkpath === '') return this.byPath.has(sourcePath) ? sourcePath : null;

		// 2. Names with a `.` in their last segment are tried as typed (`a.pdf`, `note.md`), then
		// with `.md` appended (`v1.2` → `v1.2.md`); names without one only with `.md`.
		let key = lookupKey(linkpath);
		let name = fileName(key);
		let candidates = name.includes('.') ? this.byName.get(name) : undefined;
		if (!candidates) {
			key += '.md';
			name += '.md';
			candidates = this.byName.get(name);
		}
		if (!candidates || candidates.length === 0) return null;

		// 3. A bare name with a single candidate needs no path comparison.
		if (!key.includes('/') && candidates.length === 1) return candidates[0]!.path;

		const sourceFolder = lookupKey(folderOf(sourcePath));

		// 4. Relative links are resolved against the source's folder; only an exact hit wins here.
		if (key.startsWith('./') || key.startsWith('../')) {
			const target = resolveRelative(sourceFolder, key);
			if (target !== null) {
				const hit = candidates.find((c) => c.key === target);
				if (hit) return hit.path;
			}
		}

		// 5. An exact vault path (after one leading `/`) wins over any suffix match.
		const absolute = key.startsWith('/');
		if (absolute) key = key.slice(1);
		const exact = candidates.find((c) => c.key === key);
		if (exact) return exact.path;

		// 6. `/path` means "from the vault root": no fuzzy matching.
		if (absolute) return null;

		// 7. Suffix matches, those inside the source's folder first; each list is already sorted
		// by path length with deterministic ties, so the first hit of each group is its best.
		const prefix = sourceFolder === '' ? '' : `${sourceFolder}/`;
		let outside: FileEntry | null = null;
		for (const c of candidates) {
			if (!c.key.endsWith(key)) continue;
			if (c.key.startsWith(prefix)) return c.path;
			outside ??= c;
		}
		return outside ? outside.path : null;
	}
}
