/**
 * The snapshot store on the file system: one file per vault in the cache folder (0700), each
 * file 0600 because it holds what the notes say. A save writes a temporary file and renames it
 * into place, so a concurrent reader sees the old snapshot or the new one, never half of one.
 * The folder's total size is bounded: after a save, the least recently written other snapshots
 * are deleted until it fits.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { SnapshotReader, SnapshotStore, StoredSnapshotInfo } from '../../core/snapshot/port';
import { errorCode } from '../note-reader';
import { cacheDir, makeCacheFolder, safeCacheFolder, snapshotFileName } from './cache-dir';

/** Default bound of the whole cache folder: room for a few 100k-note vaults. */
export const DEFAULT_CACHE_LIMIT_BYTES = 2 * 1024 ** 3;
/** The environment variable that sets the bound, in MB. */
export const CACHE_LIMIT_ENV = 'VAULT_QUERY_CACHE_MAX_MB';

/** A snapshot larger than the cache bound: it is not saved. */
export class SnapshotTooLargeError extends Error {
	/** Creates the error naming both sizes. */
	constructor(bytes: number, limit: number) {
		super(
			`snapshot of ${(bytes / 1e6).toFixed(1)} MB exceeds the cache bound of ${(limit / 1e6).toFixed(0)} MB (${CACHE_LIMIT_ENV})`,
		);
		this.name = 'SnapshotTooLargeError';
	}
}

/** A cache bound that is no positive number: refused, as a bad flag is, rather than read as the default. */
export class CacheLimitError extends Error {
	/** Creates the error naming the variable and the value given. */
	constructor(value: string) {
		super(
			`${CACHE_LIMIT_ENV} must be a positive number of MB (e.g. 2000), got "${value.slice(0, 40)}"; unset it for the default of ${Math.round(DEFAULT_CACHE_LIMIT_BYTES / 1e6)} MB`,
		);
		this.name = 'CacheLimitError';
	}
}

/** The cache bound from the environment, or the default when it is not set; throws CacheLimitError for a value that is no positive number. */
export function cacheLimitBytes(env: Record<string, string | undefined> = process.env): number {
	const given = env[CACHE_LIMIT_ENV];
	if (given === undefined) return DEFAULT_CACHE_LIMIT_BYTES;
	const mb = /^\s*\d+(\.\d+)?\s*$/.test(given) ? Number(given) : Number.NaN;
	if (!(Number.isFinite(mb) && mb > 0)) throw new CacheLimitError(given);
	return mb * 1e6;
}

/** Whether process `pid` runs (a signal 0 reaches it; EPERM: it runs as another user). */
function processAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return errorCode(error) === 'EPERM';
	}
}

/** Closes a reader's file when the reader is no longer reachable (a long-lived process opens many). */
const openFiles = new FinalizationRegistry<number>((fd) => {
	try {
		closeSync(fd);
	} catch {
		// already closed
	}
});

/** Snapshot files in a cache folder. */
export class FileSnapshotStore implements SnapshotStore {
	/** The cache folder. */
	readonly dir: string;
	/** The bound of the folder's total size, in bytes. */
	readonly limit: number;
	/** Why the folder is not used (see `safeCacheFolder`): nothing is read from it or saved in it. */
	readonly refused: string | null;

	/** A store in `dir` (default: the platform's cache folder; a private `vault-query` folder inside a shared one) bounded to `limit` bytes. */
	constructor(dir: string = cacheDir(), limit: number = cacheLimitBytes()) {
		const safe = safeCacheFolder(dir);
		this.dir = safe.dir;
		this.refused = safe.refused;
		this.limit = limit;
	}

	/** The file a vault's snapshot lives in. */
	pathFor(key: string): string {
		return join(this.dir, snapshotFileName(key));
	}

	/** The saved bytes, or null when there are none. Read synchronously: one large read, and a warm call has nothing to overlap it with. */
	load(key: string): Promise<Uint8Array | null> {
		if (this.refused !== null) return Promise.resolve(null);
		try {
			return Promise.resolve(readFileSync(this.pathFor(key)));
		} catch (error) {
			if (errorCode(error) === 'ENOENT') return Promise.resolve(null);
			return Promise.reject(error instanceof Error ? error : new Error(String(error)));
		}
	}

	/**
	 * The snapshot file opened for positional reads, or null when there is none. The open file is
	 * the one read from start to end: a save renames a new file over the name, never into this one.
	 */
	openReader(key: string): SnapshotReader | null {
		if (this.refused !== null) return null;
		let fd: number;
		try {
			fd = openSync(this.pathFor(key), 'r');
		} catch (error) {
			if (errorCode(error) === 'ENOENT') return null;
			throw error;
		}
		let size: number;
		try {
			size = fstatSync(fd).size;
		} catch (error) {
			closeSync(fd);
			throw error;
		}
		const reader: SnapshotReader = {
			size,
			read: (offset, length) => {
				const out = new Uint8Array(length);
				for (let done = 0; done < length;) {
					const n = readSync(fd, out, done, length - done, offset + done);
					if (n === 0) throw new Error(`snapshot ended at ${offset + done} of ${size} bytes`);
					done += n;
				}
				return out;
			},
		};
		openFiles.register(reader, fd);
		return reader;
	}

	/** Write to a private temporary file, then rename it over the snapshot. */
	async save(key: string, bytes: Uint8Array | readonly Uint8Array[]): Promise<void> {
		const chunks = bytes instanceof Uint8Array ? [bytes] : bytes;
		await this.saveStreamed(
			key,
			chunks.reduce((n, c) => n + c.length, 0),
			chunks,
		);
	}

	/**
	 * `save` with the bytes as pieces made while written (see SnapshotStore.saveStreamed): each is
	 * written before the next is asked for. A failure — a write's, or a piece's own — removes the
	 * temporary file and leaves the saved snapshot as it was; so does a total other than `size`.
	 */
	async saveStreamed(key: string, size: number, pieces: Iterable<Uint8Array>): Promise<void> {
		if (size > this.limit) throw new SnapshotTooLargeError(size, this.limit);
		if (this.refused !== null) throw new Error(this.refused);
		// The folder is checked, never chmod-ed: one that is not private stays as its owner set it, and is not used.
		makeCacheFolder(this.dir);
		const target = this.pathFor(key);
		const temp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
		const handle = await open(temp, 'wx', 0o600);
		try {
			let written = 0;
			for (const chunk of pieces) {
				for (let done = 0; done < chunk.length;)
					done += (await handle.write(chunk, done, chunk.length - done)).bytesWritten;
				written += chunk.length;
			}
			if (written !== size) throw new Error(`snapshot pieces held ${written} bytes, not the ${size} announced`);
			await handle.close();
			await rename(temp, target);
		} catch (error) {
			await handle.close().catch(() => undefined);
			await unlink(temp).catch(() => undefined);
			throw error;
		}
		await this.prune(target);
	}

	/** Delete the least recently written other snapshots while the folder exceeds its bound. */
	private async prune(keep: string): Promise<void> {
		const entries: { path: string; size: number; mtime: number }[] = [];
		for (const name of await readdir(this.dir)) {
			// A save's temporary file whose writer is gone (a crash mid-save) is never renamed into place: remove it.
			const writer = /\.(\d+)\.[0-9a-z]*\.tmp$/.exec(name);
			if (writer !== null && !processAlive(Number(writer[1])))
				await unlink(join(this.dir, name)).catch(() => undefined);
			if (!name.endsWith('.vqs')) continue;
			const path = join(this.dir, name);
			const info = await stat(path).catch(() => null);
			if (info) entries.push({ path, size: info.size, mtime: info.mtimeMs });
		}
		let total = entries.reduce((sum, e) => sum + e.size, 0);
		entries.sort((a, b) => a.mtime - b.mtime);
		for (const entry of entries) {
			if (total <= this.limit) break;
			if (entry.path === keep) continue;
			await unlink(entry.path).catch(() => undefined);
			total -= entry.size;
		}
	}

	/** Delete the vault's snapshot; true when there was one. */
	async clear(key: string): Promise<boolean> {
		try {
			await unlink(this.pathFor(key));
			return true;
		} catch (error) {
			if (errorCode(error) === 'ENOENT') return false;
			throw error;
		}
	}

	/** Where the snapshot is, its size and when it was written; null when there is none. */
	async info(key: string): Promise<StoredSnapshotInfo | null> {
		const location = this.pathFor(key);
		try {
			const s = await stat(location);
			return { location, bytes: s.size, savedAt: s.mtimeMs };
		} catch (error) {
			if (errorCode(error) === 'ENOENT') return null;
			throw error;
		}
	}
}
