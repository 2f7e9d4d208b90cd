/**
 * The vault folder on disk before any note is read: checked (a folder, not the whole disk), walked
 * within bounds with Obsidian's "Excluded files" read beside it. Read-only, as the rest of the
 * Node adapter.
 */
import { realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, parse as parsePath } from 'node:path';
import { errorCode, notRegularReason, readRegularText } from './note-reader';
import { DEFAULT_WALK_BOUNDS, VaultWalker, WalkLimitError } from './vault-walk';

/** The bounds and checks of walking a vault (part of `OpenVaultOptions`); every field has a default. */
export interface WalkOptions {
	/** Files (notes and attachments) the walk lists at most before it stops with a VaultError. Default 1,000,000. */
	maxFiles?: number;
	/** Folder nesting the walk enters at most before it stops with a VaultError. Default 64. */
	maxDepth?: number;
	/** Open the file-system root or the home folder too (refused by default: they are not vaults). */
	allowAnyFolder?: boolean;
}

/** The vault folder is missing, not a folder, or cannot be listed; the message names its absolute path. */
export class VaultError extends Error {
	/** The resolved absolute vault path. */
	readonly vaultPath: string;

	/** Creates the error for the vault at `vaultPath` (absolute). */
	constructor(message: string, vaultPath: string) {
		super(message);
		this.name = 'VaultError';
		this.vaultPath = vaultPath;
	}
}

/**
 * Obsidian's default config folder. The Node face has no `Vault#configDir` to ask (the lint
 * rule's advice is for plugin code), so this is the default and `OpenVaultOptions.configDir` overrides it.
 */
export const DEFAULT_CONFIG_DIR = '.obsidian';

/** Obsidian's "Excluded files" as read from `<configDir>/app.json`, and why they could not be read. */
export interface ExcludedFilesRead {
	/** `userIgnoreFilters`; `[]` when the file is missing or could not be used. */
	filters: string[];
	/** Why an existing app.json was not used (a FIFO, unreadable, malformed), or null: every answer reports it. */
	problem: string | null;
}

/**
 * `userIgnoreFilters` from `<configDir>/app.json`. A missing file means no Excluded files; one that
 * exists but cannot be used is reported, since the notes the user excluded are then searched. The
 * file type is checked before opening, so a FIFO is never opened (no wait for a writer).
 */
export async function readExcludedFiles(vaultAbs: string, configDir: string): Promise<ExcludedFilesRead> {
	const path = `${configDir}/app.json`;
	const abs = join(vaultAbs, configDir, 'app.json');
	const unused = (why: string): ExcludedFilesRead => ({ filters: [], problem: `${path} ${why}` });
	let raw: string;
	try {
		const irregular = notRegularReason(await stat(abs));
		if (irregular !== null) return unused(`is ${irregular}`);
		raw = await readRegularText(abs);
	} catch (error) {
		const code = errorCode(error);
		return code === 'ENOENT' || code === 'ENOTDIR'
			? { filters: [], problem: null }
			: unused(`is unreadable (${code})`);
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(raw);
	} catch {
		return unused('is not valid JSON');
	}
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return unused('is not a JSON object');
	const filters = (parsed as Record<string, unknown>).userIgnoreFilters;
	if (filters === undefined) return { filters: [], problem: null };
	if (!Array.isArray(filters)) return unused('has a userIgnoreFilters that is not a list');
	return { filters: filters.filter((f): f is string => typeof f === 'string'), problem: null };
}

/** `userIgnoreFilters` from `<configDir>/app.json`; a missing or unusable file gives `[]` (see readExcludedFiles for why). */
export async function readUserIgnoreFilters(vaultAbs: string, configDir: string): Promise<string[]> {
	return (await readExcludedFiles(vaultAbs, configDir)).filters;
}

/** Notes are `.md` files, the extension compared as Obsidian does (case-sensitive). */
export function isNotePath(path: string): boolean {
	return path.endsWith('.md');
}

/** Checks that `abs` is a folder, or throws a VaultError naming it. */
export async function assertVaultFolder(abs: string): Promise<void> {
	let isDir: boolean;
	try {
		isDir = (await stat(abs)).isDirectory();
	} catch (error) {
		const code = errorCode(error);
		throw new VaultError(
			code === 'ENOENT' ? `Vault folder not found: ${abs}` : `Cannot open vault folder ${abs} (${code})`,
			abs,
		);
	}
	if (!isDir) throw new VaultError(`Vault path is not a folder: ${abs}`, abs);
}

/** Refuses the file-system root and the home folder: walking either reads the whole disk. */
async function assertLooksLikeVault(abs: string, real: string): Promise<void> {
	const home = await realpath(homedir()).catch(() => homedir());
	const what = real === parsePath(real).root ? 'the file-system root' : real === home ? 'your home folder' : null;
	if (what !== null) {
		throw new VaultError(
			`Refusing to open ${abs} as a vault: it is ${what}, and searching it would read every file below it (--allow-any-folder opens it anyway)`,
			abs,
		);
	}
}

/** What both Node sources are built from after a walk: the vault, its exclusions and what the walk listed. */
export interface WalkedSourceInit {
	vaultPath: string;
	configDir: string;
	userIgnoreFilters: readonly string[];
	/** Why app.json's Excluded files could not be used, or null. */
	excludedFilesProblem?: string | null;
	files: readonly string[];
	notes: readonly string[];
	walkSkips: ReadonlyMap<string, string>;
}

/** What walking a vault found: every file, the notes (lost entries last), and the walker's reports. */
export interface VaultListing {
	/** The symlink-free absolute path. */
	real: string;
	files: string[];
	/** Notes in walk order, then walk entries whose notes are searched nowhere (listed as skipped). */
	notes: string[];
	/** Those lost entries. */
	lost: string[];
	walker: VaultWalker;
	userIgnoreFilters: string[];
	/** Why app.json's Excluded files could not be used, or null. */
	excludedFilesProblem: string | null;
}

/**
 * Checks that `abs` can be a vault, then walks it within the bounds of `options` and reads
 * Obsidian's "Excluded files". Throws VaultError naming the folder.
 */
export async function walkVault(abs: string, configDir: string, options: WalkOptions): Promise<VaultListing> {
	await assertVaultFolder(abs);
	const real = await realpath(abs);
	if (options.allowAnyFolder !== true) await assertLooksLikeVault(abs, real);
	const bounds = {
		maxFiles: options.maxFiles ?? DEFAULT_WALK_BOUNDS.maxFiles,
		maxDepth: options.maxDepth ?? DEFAULT_WALK_BOUNDS.maxDepth,
	};
	const walker = new VaultWalker(real, configDir, bounds);
	let files: string[];
	try {
		files = walker.walkSync(abs);
	} catch (error) {
		if (error instanceof WalkLimitError) throw new VaultError(`Stopped walking ${abs}: ${error.message}`, abs);
		throw new VaultError(`Cannot list vault folder ${abs} (${errorCode(error)})`, abs);
	}
	const excludedFiles = await readExcludedFiles(abs, configDir);
	// Walk entries whose notes are searched nowhere (a link out of the vault, an unreadable folder)
	// are listed with the notes, skipped with their reason, so every answer reports them.
	const lost = [...walker.lost].sort();
	return {
		real,
		files,
		notes: [...files.filter(isNotePath), ...lost],
		lost,
		walker,
		userIgnoreFilters: excludedFiles.filters,
		excludedFilesProblem: excludedFiles.problem,
	};
}
