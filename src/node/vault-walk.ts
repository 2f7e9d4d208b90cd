/**
 * Lists every file of a vault folder, vault-relative with `/`, in a reproducible order, leaving out
 * what Obsidian never indexes (dot-folders, so `.obsidian`, `.git`, `.trash` too; dot-files stay, as
 * Obsidian lists them) and `node_modules`. Bounded: a walk that meets more files or deeper folders
 * than any real vault has stops with a `WalkLimitError` (`--vault /` must not read the disk).
 *
 * Symbolic links, decided as ripgrep does without `--follow`, with one exception: a link to a file
 * inside the vault is listed at the link's path (it cannot recurse). A link to a folder is never
 * followed — inside the vault its folder is walked at its own path anyway (following could only
 * duplicate notes, loop, or explode: two links per level over 22 levels is 4 million paths), and
 * outside it the link would expose any folder of the machine. Both are recorded with a reason.
 */
import type { Dirent } from 'node:fs';
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { errorCode } from './note-reader';

/**
 * Folders that are never part of a vault's content, at any depth, beyond the dot-folders skipped
 * by name (the config folder is skipped at the root even when configured without a dot).
 */
const ALWAYS_SKIPPED_FOLDERS = new Set(['node_modules']);

/** Bounds on one walk; defaults no real vault meets. */
export interface WalkBounds {
	/** Files (notes and attachments) listed at most. */
	maxFiles: number;
	/** Folder nesting below the vault root at most. */
	maxDepth: number;
}

/** The default bounds: 1,000,000 files (the largest vaults we know hold ~100k notes) and 64 folder levels. */
export const DEFAULT_WALK_BOUNDS: WalkBounds = { maxFiles: 1_000_000, maxDepth: 64 };

/** The walk met a bound: the message says which, and the flag that raises it. */
export class WalkLimitError extends Error {}

/** True for `child` equal to or below `parent` (both absolute, real paths). */
function isInside(parent: string, child: string): boolean {
	return child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

/** Code-unit order: readdir order depends on the file system, and reports must be reproducible. */
function byName(a: Dirent, b: Dirent): number {
	return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * The order the walk lists files in: depth-first with each folder's entries in code-unit order
 * of their names, which is the code-unit order of the paths compared segment by segment (`a/z`
 * comes before `a-b`, as folder `a` is walked before the name `a-b`). For placing a file that
 * appeared since a walk without walking again.
 */
export function walkOrder(a: string, b: string): number {
	const x = a.split('/');
	const y = b.split('/');
	for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
	return x.length - y.length;
}

/**
 * Whether a walk enters the folder `folder` (vault-relative, no trailing `/`, `''` for the root)
 * by its own path: no dot-folder, `node_modules` or, at the root, the config folder on the way.
 */
export function isWalkedFolder(folder: string, configDir: string): boolean {
	if (folder === '') return true;
	return folder
		.split('/')
		.every(
			(part, i) => !part.startsWith('.') && !ALWAYS_SKIPPED_FOLDERS.has(part) && !(i === 0 && part === configDir),
		);
}

/** What a non-regular directory entry is, for its skip reason. */
function kindOf(entry: {
	isFIFO(): boolean;
	isSocket(): boolean;
	isBlockDevice(): boolean;
	isCharacterDevice(): boolean;
}): string {
	if (entry.isFIFO()) return 'a FIFO';
	if (entry.isSocket()) return 'a socket';
	return entry.isBlockDevice() || entry.isCharacterDevice() ? 'a device' : 'not a regular file';
}

/**
 * Walks a vault folder within bounds; see the file comment for symbolic links. Synchronous calls:
 * a warm CLI call lists a few hundred folders, and one `readdirSync` costs a fraction of a promise
 * round trip through the thread pool (measured on obsidian-help-i18n: ~15 ms against ~50 ms).
 */
export class VaultWalker {
	/** Entries left out, by vault-relative path (folders end in `/`), with the reason. */
	readonly skipped = new Map<string, string>();
	/** The skipped entries whose notes are indexed nowhere else (answers report these as not searched). */
	readonly lost = new Set<string>();
	private files = 0;

	/** `realRoot`: the vault's symlink-free absolute path; `configDir`: skipped at the root only. */
	constructor(
		private readonly realRoot: string,
		private readonly configDir: string,
		private readonly bounds: WalkBounds = DEFAULT_WALK_BOUNDS,
	) {}

	/** Every file below the root, vault-relative with `/`, depth-first in name order. */
	async walk(rootAbs: string): Promise<string[]> {
		return this.walkSync(rootAbs);
	}

	/** `walk`, without the promise. */
	walkSync(rootAbs: string): string[] {
		const out: string[] = [];
		this.walkDir(rootAbs, '', 0, out);
		return out;
	}

	/** Records a skipped entry; `lost` when no note under it is indexed at another path. */
	private skip(rel: string, reason: string, lost: boolean): void {
		this.skipped.set(rel, reason);
		if (lost) this.lost.add(rel);
	}

	/** Counts one listed file against the bound. */
	private count(): void {
		if (++this.files > this.bounds.maxFiles) {
			throw new WalkLimitError(
				`more than ${this.bounds.maxFiles} files: is this really a vault? (--max-files raises the bound)`,
			);
		}
	}

	/** One folder, its files appended to `out`: `abs` is how we reach it, `rel` its vault path (`''` or ending in `/`), `depth` its nesting. */
	private walkDir(abs: string, rel: string, depth: number, out: string[]): void {
		if (depth > this.bounds.maxDepth) {
			throw new WalkLimitError(
				`folders nested more than ${this.bounds.maxDepth} deep (${rel}): is this really a vault? (--max-depth raises the bound)`,
			);
		}
		let entries: Dirent[];
		try {
			entries = readdirSync(abs, { withFileTypes: true });
		} catch (error) {
			if (rel === '') throw error;
			this.skip(rel, `unreadable folder (${errorCode(error)})`, true);
			return;
		}
		entries.sort(byName);
		for (const entry of entries) {
			// Obsidian does not load dot-folders (`.templates/`, `_inbox/.dropped/`, `.git/`), so its
			// MetadataCache has nothing from them; leaving them out keeps the CLI equal to the plugin.
			// Dot-files stay: Obsidian lists them (the recorded vault-files.txt has `.gitignore`).
			if (entry.name.startsWith('.') && (entry.isDirectory() || entry.isSymbolicLink())) continue;
			const childRel = rel + entry.name;
			if (entry.isFile()) {
				this.count();
				out.push(childRel);
			} else if (entry.isDirectory()) {
				if (!this.isSkippedFolder(entry.name, rel))
					this.walkDir(join(abs, entry.name), `${childRel}/`, depth + 1, out);
			} else if (entry.isSymbolicLink()) {
				if (this.followLink(entry.name, join(abs, entry.name), rel)) out.push(childRel);
			} else {
				// Sockets, FIFOs, devices: never notes, and opening a FIFO would wait for a writer forever.
				this.skip(childRel, `${kindOf(entry)}, not a regular file`, childRel.endsWith('.md'));
			}
		}
	}

	/** The config folder at the root, and VCS/package/trash folders anywhere. */
	private isSkippedFolder(name: string, rel: string): boolean {
		return ALWAYS_SKIPPED_FOLDERS.has(name) || (rel === '' && name === this.configDir);
	}

	/** True when the walk reaches the vault folder `where` (vault-relative, no trailing `/`) by its own path. */
	private isWalked(where: string): boolean {
		const parts = where.split('/');
		return parts.every((part, i) => !part.startsWith('.') && !this.isSkippedFolder(part, i === 0 ? '' : 'x/'));
	}

	/** A symbolic link: true for a regular file inside the vault (listed at the link's path); anything else is recorded and left out. */
	private followLink(name: string, abs: string, rel: string): boolean {
		const childRel = rel + name;
		const isNote = childRel.endsWith('.md');
		let target: string;
		try {
			target = realpathSync(abs);
		} catch (error) {
			const code = errorCode(error);
			this.skip(
				childRel,
				code === 'ENOENT'
					? 'broken symbolic link'
					: code === 'ELOOP'
						? 'symbolic link loop'
						: `unreadable symbolic link (${code})`,
				isNote,
			);
			return false;
		}
		let info;
		try {
			info = statSync(target);
		} catch (error) {
			this.skip(childRel, `unreadable (${errorCode(error)})`, isNote);
			return false;
		}
		const inside = isInside(this.realRoot, target);
		if (info.isDirectory()) {
			const where = relative(this.realRoot, target).split(sep).join('/');
			if (!inside) this.skip(`${childRel}/`, 'symbolic link to a folder outside the vault', true);
			else if (where === '' || isInside(target, join(this.realRoot, rel)))
				this.skip(`${childRel}/`, 'symbolic link loop (to a folder that contains it)', false);
			else if (!this.isWalked(where))
				this.skip(`${childRel}/`, `symbolic link to a folder the vault does not index (${where}/)`, true);
			else
				this.skip(
					`${childRel}/`,
					`symbolic link to a folder of the vault, indexed at its own path (${where}/)`,
					false,
				);
			return false;
		}
		if (!inside) {
			this.skip(childRel, 'symbolic link to outside the vault', isNote);
			return false;
		}
		if (!info.isFile()) {
			this.skip(childRel, `symbolic link to ${kindOf(info)}, not a regular file`, isNote);
			return false;
		}
		this.count();
		return true;
	}
}
