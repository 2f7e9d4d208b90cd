/** Bases' `file.size`, `file.ctime`, `file.mtime` on a folder vault: one `stat` per file asked about, kept. */
import { statSync } from 'node:fs';
import { join } from 'node:path';

/** A file's size and times, or null when it cannot be stat'ed. */
export type FileStatOf = (path: string) => { size: number; ctime: number; mtime: number } | null;

/** A cached stat of vault files under `vaultPath` (files are stat'ed lazily: opening a vault never pays for it). */
export function fileStatter(vaultPath: string): FileStatOf {
	const cache = new Map<string, { size: number; ctime: number; mtime: number } | null>();
	return (path) => {
		if (cache.has(path)) return cache.get(path)!;
		let out: { size: number; ctime: number; mtime: number } | null = null;
		try {
			const s = statSync(join(vaultPath, path));
			// Obsidian's ctime is the birth time where the file system keeps one.
			out = { size: s.size, ctime: Math.floor(s.birthtimeMs || s.ctimeMs), mtime: Math.floor(s.mtimeMs) };
		} catch {
			out = null;
		}
		cache.set(path, out);
		return out;
	};
}
