/** Vault path helpers: vault-relative paths with `/` separators, as Obsidian uses them. */

/** The file name with its extension (`a/b/Note.md` → `Note.md`). */
export function fileName(path: string): string {
	const slash = path.lastIndexOf('/');
	return slash < 0 ? path : path.slice(slash + 1);
}

/** The file name without `.md` (Obsidian's `basename` for notes). */
export function baseName(path: string): string {
	const name = fileName(path);
	return name.toLowerCase().endsWith('.md') ? name.slice(0, -3) : name;
}

/** The parent folder, `''` for the vault root (`a/b/Note.md` → `a/b`). */
export function folderOf(path: string): string {
	const slash = path.lastIndexOf('/');
	return slash < 0 ? '' : path.slice(0, slash);
}

/** A folder given by a user (`facts`, `/facts/`, `facts\\`) as a prefix ending in `/`, or `''` for the root. */
export function folderPrefix(folder: string): string {
	const trimmed = folder
		.trim()
		.replace(/\\/g, '/')
		.replace(/^\.?\/+/, '')
		.replace(/\/+$/, '');
	return trimmed === '' ? '' : `${trimmed}/`;
}

/** True when `path` lies inside the folder given as a prefix (case-sensitive, like the file system). */
export function isInFolder(path: string, prefix: string): boolean {
	return prefix === '' || path.startsWith(prefix);
}

/** The walk order of two paths: folder by folder, names in code-unit order, a folder's files and sub-folders mixed by name. */
export function byWalkOrder(a: string, b: string): number {
	const as = a.split('/');
	const bs = b.split('/');
	const n = Math.min(as.length, bs.length);
	for (let i = 0; i < n; i++) {
		if (as[i] !== bs[i]) return as[i]! < bs[i]! ? -1 : 1;
	}
	return as.length - bs.length;
}
