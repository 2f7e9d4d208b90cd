/**
 * Where snapshots live: the user's cache directory, never the vault. `VAULT_QUERY_CACHE_DIR`
 * overrides it (tests, CI, a machine with a fast disk elsewhere).
 */
import { lstatSync, mkdirSync, statSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { sha256Hex } from './digest';

/** The environment variable that overrides the cache folder. */
export const CACHE_DIR_ENV = 'VAULT_QUERY_CACHE_DIR';

/**
 * The cache folder for this platform: `$XDG_CACHE_HOME/vault-query` or `~/.cache/vault-query`
 * (Linux and other Unixes), `~/Library/Caches/vault-query` (macOS), `%LOCALAPPDATA%\vault-query\Cache`
 * (Windows); `VAULT_QUERY_CACHE_DIR` wins everywhere.
 */
export function cacheDir(
	env: Record<string, string | undefined> = process.env,
	platform: string = process.platform,
	home: string = homedir(),
): string {
	const override = env[CACHE_DIR_ENV];
	if (override !== undefined && override !== '') return override;
	if (platform === 'darwin') return join(home, 'Library', 'Caches', 'vault-query');
	if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'vault-query', 'Cache');
	const xdg = env.XDG_CACHE_HOME;
	return join(xdg !== undefined && xdg !== '' ? xdg : join(home, '.cache'), 'vault-query');
}

/** The file name of a vault's snapshot: a hash of its real path, so names never leak folder names. */
export function snapshotFileName(vaultRealPath: string): string {
	return `${sha256Hex(vaultRealPath).slice(0, 32)}.vqs`;
}

/** The cache folder the safety rule allows, or why none is used (then nothing is cached and no server runs). */
export type CacheFolder = { dir: string; refused: null } | { dir: string; refused: string };

/** The mode bits that let group or others write. */
const GROUP_OR_OTHER_WRITE = 0o022;
/** The sticky bit: in a folder others may write, only an entry's owner may remove or rename it. */
const STICKY = 0o1000;

/** Why `info` is no folder only this user writes, or null when it is one. */
function notPrivate(path: string, info: Stats, uid: number): string | null {
	if (info.isSymbolicLink()) return `${path} is a symbolic link`;
	if (!info.isDirectory()) return `${path} is not a folder`;
	if (info.uid !== uid) return `${path} belongs to another user (uid ${info.uid})`;
	if ((info.mode & GROUP_OR_OTHER_WRITE) !== 0)
		return `${path} is writable by group or others (mode ${(info.mode & 0o7777).toString(8)})`;
	return null;
}

/** The refusal message for a cache folder, naming the way out. */
function refusal(why: string): string {
	return `the cache folder is not safe: ${why}; nothing is cached and no background server runs (name a folder only you can write in ${CACHE_DIR_ENV})`;
}

/**
 * The rule ssh applies to ~/.ssh, for the cache folder `named`: it is used when it does not exist
 * yet (it is created 0700) or when this user owns it and no one else can write it. A folder others
 * may write — a shared `1777` folder, one owned by root — is left as it is: a private `vault-query`
 * folder inside it is used, when that is safe (the sticky bit keeps others from swapping it). Any
 * other folder is refused: another user could plant the socket, the log or a snapshot there.
 */
export function safeCacheFolder(named: string, uid: number | undefined = process.getuid?.()): CacheFolder {
	if (uid === undefined) return { dir: named, refused: null }; // Windows: the folder's ACL is the user's profile's
	let info: Stats;
	try {
		info = statSync(named);
	} catch {
		return { dir: named, refused: null }; // created private on the first save, or the save says why it cannot be
	}
	if (notPrivate(named, info, uid) === null) return { dir: named, refused: null };
	const ownerTrusted = info.uid === uid || info.uid === 0;
	const othersCannotSwap = (info.mode & GROUP_OR_OTHER_WRITE) === 0 || (info.mode & STICKY) !== 0;
	if (!info.isDirectory() || !ownerTrusted || !othersCannotSwap)
		return { dir: named, refused: refusal(notPrivate(named, info, uid) ?? named) };
	const inner = join(named, 'vault-query');
	try {
		const why = notPrivate(inner, lstatSync(inner), uid);
		return why === null ? { dir: inner, refused: null } : { dir: inner, refused: refusal(why) };
	} catch {
		return { dir: inner, refused: null };
	}
}

/**
 * Creates the cache folder `dir` (0700) and any missing parent, one level at a time from the
 * nearest one that exists, then checks it is private (see assertPrivateFolder). Not Node's
 * recursive mkdir: on a path under /proc (`VAULT_QUERY_CACHE_DIR=/proc/nope/cache`) Node 20's
 * never returns. Throws one error saying which folder could not be made and why.
 */
export function makeCacheFolder(dir: string): void {
	const missing: string[] = [];
	for (let at = resolve(dir); ; at = dirname(at)) {
		let info: Stats | null = null;
		try {
			info = statSync(at);
		} catch (error) {
			if ((error as { code?: string }).code !== 'ENOENT' || dirname(at) === at)
				throw new Error(`cannot create the cache folder ${dir}: ${reason(error)}`, { cause: error });
		}
		if (info !== null) {
			if (!info.isDirectory()) throw new Error(`cannot create the cache folder ${dir}: ${at} is not a folder`);
			break;
		}
		missing.unshift(at);
	}
	for (const path of missing) {
		try {
			mkdirSync(path, { mode: 0o700 });
		} catch (error) {
			if ((error as { code?: string }).code === 'EEXIST' && statSync(path).isDirectory()) continue; // made meanwhile by another call
			throw new Error(`cannot create the cache folder ${dir}: ${reason(error)}`, { cause: error });
		}
	}
	assertPrivateFolder(dir);
}

/** A file-system error in a few words: the call, the path and the code (`mkdir /proc/nope: ENOENT`). */
function reason(error: unknown): string {
	const e = error as { code?: string; path?: string; syscall?: string; message?: string };
	return e.code !== undefined && e.path !== undefined
		? `${e.syscall ?? 'stat'} ${e.path}: ${e.code}`
		: String(e.message ?? error);
}

/** Checks a folder this process just made (or found) is still one only this user writes; throws the refusal otherwise. */
export function assertPrivateFolder(dir: string, uid: number | undefined = process.getuid?.()): void {
	if (uid === undefined) return;
	const why = notPrivate(dir, lstatSync(dir), uid);
	if (why !== null) throw new Error(refusal(why));
}

/** The platform's cache folder after the safety rule (see `safeCacheFolder`). */
export function safeCacheDir(env: Record<string, string | undefined> = process.env): CacheFolder {
	return safeCacheFolder(cacheDir(env));
}
