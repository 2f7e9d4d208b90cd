/**
 * Watches the vault folder and hands batches of changed paths to the session.
 * Events are coalesced: a refresh starts once the folder has been quiet for `quietMs`, or at the
 * latest `maxWaitMs` after the first event of a burst, so a `git checkout` touching a thousand
 * notes is one refresh, not a thousand.
 */
import { existsSync, lstatSync, readdirSync, watch, type Dirent, type FSWatcher } from 'node:fs';
import { join, sep } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';

/** Options of {@link watchVault}; every field has a default. */
export interface WatchOptions {
	/** Obsidian's config folder; only `app.json` and `types.json` inside it matter. Default `.obsidian`. */
	configDir?: string;
	/** Quiet period that ends a burst, ms. Default 75. */
	quietMs?: number;
	/** Longest a burst may delay its refresh, ms. Default 400 — well inside the 1 s freshness promise. */
	maxWaitMs?: number;
}

/** A running watcher: `close()` stops it; `error` says why it could not start (then nothing is watched). */
export interface VaultWatcher {
	close(): void;
	/** Hand over the changes seen so far now, without waiting for the burst to end (a call is about to be answered). */
	flush(): void;
	readonly error: string | null;
}

/**
 * Whether a changed path (vault-relative, `/`-separated) can change an answer; with `folder`,
 * whether a folder is worth watching (the config folder is, for app.json and types.json).
 */
export function isRelevantChange(path: string, configDir: string, folder = false): boolean {
	const parts = path.split('/');
	if (parts[0] === configDir)
		return folder
			? parts.length === 1
			: parts.length === 2 && (parts[1] === 'app.json' || parts[1] === 'types.json');
	// Version-control and trash folders are never notes; Obsidian does not index them either.
	return !parts.some((p) => p === '.git' || p === '.trash');
}

/**
 * One `fs.watch` per folder (non-recursive). On Linux, Node 20's `recursive: true` is emulated in
 * JavaScript with a stat watcher per *file* — measured on obsidian-help-i18n (6,192 files): 1.3 s
 * of blocking setup and +35 MB, which would be ~10 s and ~300 MB on a 50k-note vault, and a burst
 * of 1,000 new files stalled the event loop for 2.4 s. Folder watches are what inotify offers
 * natively: a vault of 50k notes has a few hundred to a few thousand folders. macOS and Windows
 * watch a tree natively, so they use `recursive: true`.
 */
class FolderWatches {
	private readonly watches = new Map<string, FSWatcher>();
	error: string | null = null;

	constructor(
		private readonly root: string,
		private readonly configDir: string,
		private readonly onEvent: (relative: string) => void,
	) {}

	/**
	 * Watch `rel` (vault-relative, '' for the root) and every folder below it that is not skipped.
	 * With `announce` (a folder that appeared while running), its files are reported as changed:
	 * they may have been written before the watch started.
	 */
	add(rel: string, announce = false): void {
		if (this.watches.has(rel)) return;
		const abs = rel === '' ? this.root : join(this.root, rel);
		let watcher: FSWatcher;
		try {
			watcher = watch(abs, { persistent: true }, (_event, name) =>
				this.event(rel, name === null ? null : name.toString()),
			);
		} catch (error) {
			if (rel === '') throw error;
			return; // A folder that vanished or cannot be read: the next refresh's walk reports it.
		}
		watcher.on('error', (error) => {
			this.watches.get(rel)?.close();
			this.watches.delete(rel);
			if (rel === '') this.error = error.message;
		});
		this.watches.set(rel, watcher);
		let entries: Dirent[];
		try {
			entries = readdirSync(abs, { withFileTypes: true });
		} catch {
			return;
		}
		for (const entry of entries) {
			const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
			// Symlinks are not followed (the vault walk does not follow links that leave the vault either).
			if (entry.isDirectory() && isRelevantChange(child, this.configDir, true)) this.add(child, announce);
			else if (announce && entry.isFile()) this.onEvent(child);
		}
	}

	/** A change inside folder `rel`: report it, and start watching a folder that just appeared. */
	private event(rel: string, name: string | null): void {
		const child = name === null ? rel : rel === '' ? name : `${rel}/${name}`;
		if (name !== null && !this.watches.has(child)) {
			try {
				if (lstatSync(join(this.root, child)).isDirectory() && isRelevantChange(child, this.configDir, true))
					this.add(child, true);
			} catch {
				// Gone already (a delete or the first half of a rename): nothing to watch.
			}
		}
		if (this.watches.has(child) && !existsSync(join(this.root, child))) {
			for (const [key, watcher] of this.watches) {
				if (key === child || key.startsWith(`${child}/`)) {
					watcher.close();
					this.watches.delete(key);
				}
			}
		}
		this.onEvent(child);
	}

	/** Stop every watch. */
	close(): void {
		for (const watcher of this.watches.values()) watcher.close();
		this.watches.clear();
	}
}

/**
 * Watch `root` and call `onBatch(paths)` with each coalesced batch of relevant changes.
 * A watcher that cannot start (inotify limits, a missing folder) returns `error` instead of
 * throwing: the server still answers, from the state it opened with.
 */
export function watchVault(root: string, onBatch: (paths: string[]) => void, options: WatchOptions = {}): VaultWatcher {
	const configDir = options.configDir ?? '.obsidian';
	const quietMs = options.quietMs ?? 75;
	const maxWaitMs = options.maxWaitMs ?? 400;
	const pending = new Set<string>();
	let quiet: ReturnType<typeof setTimeout> | null = null;
	let deadline: ReturnType<typeof setTimeout> | null = null;
	const flush = (): void => {
		if (quiet) clearTimeout(quiet);
		if (deadline) clearTimeout(deadline);
		quiet = deadline = null;
		if (pending.size === 0) return;
		const batch = [...pending];
		pending.clear();
		onBatch(batch);
	};
	const onEvent = (path: string): void => {
		if (path !== '' && !isRelevantChange(path, configDir)) return;
		pending.add(path);
		if (quiet) clearTimeout(quiet);
		quiet = setTimeout(flush, quietMs);
		deadline ??= setTimeout(flush, maxWaitMs);
	};
	let stop: () => void;
	let errorOf: () => string | null;
	try {
		if (process.platform === 'linux') {
			const folders = new FolderWatches(root, configDir, onEvent);
			folders.add('');
			stop = () => folders.close();
			errorOf = () => folders.error;
		} else {
			const state = { error: null as string | null };
			const watcher = watch(root, { recursive: true, persistent: true }, (_event, name) =>
				onEvent(name === null ? '' : name.toString().split(sep).join('/')),
			);
			watcher.on('error', (error) => (state.error = error.message));
			stop = () => watcher.close();
			errorOf = () => state.error;
		}
	} catch (error) {
		return {
			close: () => undefined,
			flush: () => undefined,
			error: error instanceof Error ? error.message : String(error),
		};
	}
	return {
		flush,
		close: () => {
			if (quiet) clearTimeout(quiet);
			if (deadline) clearTimeout(deadline);
			stop();
		},
		get error() {
			return errorOf();
		},
	};
}
