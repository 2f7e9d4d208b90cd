/**
 * Lists every file of a vault folder, vault-relative with `/`, in a reproducible order, leaving out
 * what Obsidian never indexes (dot-folders, so `.obsidian`, `.git`, `.trash` too; dot-files stay, as Obsidian lists them) and
 * `node_modules`, and following symbolic links only while they stay inside the vault.
 */
import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { errorCode } from './note-reader';

/**
 * Folders that are never part of a vault's content, at any depth, beyond the dot-folders skipped
 * by name (the config folder is skipped at the root even when configured without a dot).
 */
const ALWAYS_SKIPPED_FOLDERS = new Set(['node_modules']);

/** True for `child` equal to or below `parent` (both absolute, real paths). */
function isInside(parent: string, child: string): boolean {
	return child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

/** Code-unit order: readdir order depends on the file system, and reports must be reproducible. */
function byName(a: Dirent, b: Dirent): number {
	return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Walks a vault folder in parallel; symlinks are followed only while they stay inside the vault. */
export class VaultWalker {
	/** Entries left out, by vault-relative path. */
	readonly skipped = new Map<string, string>();

	/** `realRoot`: the vault's symlink-free absolute path; `configDir`: skipped at the root only. */
	constructor(
		private readonly realRoot: string,
		private readonly configDir: string,
	) {}

	/** Every file below the root, vault-relative with `/`, depth-first in name order. */
	async walk(rootAbs: string): Promise<string[]> {
		return this.walkDir(rootAbs, this.realRoot, '', new Set([this.realRoot]));
	}

	/**
	 * One folder: `abs` is how we reach it, `real` its symlink-free path, `rel` its vault path (`''`
	 * or ending in `/`), `chain` the real paths of it and its ancestors (for loop detection).
	 */
	private async walkDir(abs: string, real: string, rel: string, chain: ReadonlySet<string>): Promise<string[]> {
		let entries: Dirent[];
		try {
			entries = await readdir(abs, { withFileTypes: true });
		} catch (error) {
			if (rel === '') throw error;
			this.skipped.set(rel.slice(0, -1), `unreadable folder (${errorCode(error)})`);
			return [];
		}
		entries.sort(byName);
		// Subfolders are listed concurrently but spliced back in name order.
		const parts = entries.map(async (entry): Promise<string[]> => {
			// Obsidian does not load dot-folders (`.templates/`, `_inbox/.dropped/`, `.git/`), so its
			// MetadataCache has nothing from them; leaving them out keeps the CLI equal to the plugin.
			// Dot-files stay: Obsidian lists them (the recorded vault-files.txt has `.gitignore`).
			if (entry.name.startsWith('.') && (entry.isDirectory() || entry.isSymbolicLink())) return [];
			const childAbs = join(abs, entry.name);
			const childRel = rel + entry.name;
			if (entry.isFile()) return [childRel];
			if (entry.isDirectory()) {
				if (this.isSkippedFolder(entry.name, rel)) return [];
				const childReal = join(real, entry.name);
				return this.walkDir(childAbs, childReal, `${childRel}/`, new Set(chain).add(childReal));
			}
			if (entry.isSymbolicLink()) return this.followLink(entry.name, childAbs, rel, chain);
			return []; // sockets, FIFOs, devices: never notes
		});
		const lists = await Promise.all(parts);
		return lists.flat();
	}

	/** The config folder at the root, and VCS/package/trash folders anywhere. */
	private isSkippedFolder(name: string, rel: string): boolean {
		return ALWAYS_SKIPPED_FOLDERS.has(name) || (rel === '' && name === this.configDir);
	}

	/**
	 * A symlink is followed only when its target lies inside the vault (a link out of it could
	 * expose any file on the machine), and a linked folder only when it is not one of its own
	 * ancestors (a loop).
	 */
	private async followLink(name: string, abs: string, rel: string, chain: ReadonlySet<string>): Promise<string[]> {
		const childRel = rel + name;
		let target: string;
		try {
			target = await realpath(abs);
		} catch {
			this.skipped.set(childRel, 'broken symbolic link');
			return [];
		}
		if (!isInside(this.realRoot, target)) {
			this.skipped.set(childRel, 'symbolic link to outside the vault');
			return [];
		}
		let isDir: boolean;
		try {
			isDir = (await stat(target)).isDirectory();
		} catch (error) {
			this.skipped.set(childRel, `unreadable (${errorCode(error)})`);
			return [];
		}
		if (!isDir) return [childRel];
		if (this.isSkippedFolder(name, rel)) return [];
		if (chain.has(target)) {
			this.skipped.set(childRel, 'symbolic link loop');
			return [];
		}
		return this.walkDir(abs, target, `${childRel}/`, new Set(chain).add(target));
	}
}
