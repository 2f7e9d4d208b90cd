/**
 * A warm vault for a long-lived process (the MCP server, the CLI's background server): the
 * session over the vault, the watcher that keeps it current, and the trigram upkeep, started in
 * the order that keeps the first answer fast. Both servers start it the same way, so they answer
 * from the same state by the same rules.
 */
import { clearTimeout, setImmediate, setTimeout } from 'node:timers';
import type { EngineConfig } from '../core/engine/engine';
import { VaultSession, type VaultOpener } from './session';
import { TRIGRAM_DELAY_ENV, TrigramUpkeep } from './trigrams';
import { watchVault, type VaultWatcher } from './watcher';

/** Quiet after a refresh before the search index takes its changes in the background, ms. */
const CATCH_UP_QUIET_MS = 500;
/** Longest a stream of refreshes may put that off, ms. */
const CATCH_UP_AT_LATEST_MS = 5000;

/** A started warm vault (see the module comment). */
export interface WarmVault {
	readonly session: VaultSession;
	readonly watcher: VaultWatcher;
	readonly trigrams: TrigramUpkeep;
	/**
	 * Loads the saved indexes, once: search first (its calls wait for it; grep scans meanwhile),
	 * then what structural queries share, then the trigram index. Called after the first answer
	 * is out, because each load is a long synchronous decode that answer must not wait for.
	 * Resolves when all three are done (a built index saved).
	 */
	loadIndexes(): Promise<void>;
	/** Stops watching and building; lets an index part being written finish (bounded). */
	close(): Promise<void>;
}

/** What a warm vault is made of. */
export interface WarmVaultOptions {
	/** The vault folder (watched) and Obsidian's config folder in it. */
	vaultPath: string;
	configDir: string;
	open: VaultOpener;
	config: EngineConfig;
	log: (line: string) => void;
}

/**
 * Starts watching the vault, then opens it, and returns the warm vault; throws `VaultError` when
 * the folder cannot be opened. The watch comes first so that no write is missed between the
 * first read and the watch: a refresh trusts it for every note it did not report.
 */
export async function startWarmVault(options: WarmVaultOptions): Promise<WarmVault> {
	const { open, config, log } = options;
	let session: VaultSession | null = null;
	const early: string[] = [];
	const watcher = watchVault(
		options.vaultPath,
		(paths) => {
			if (session === null) return void early.push(...paths);
			session.changed(paths);
			void session.refresh();
		},
		{ configDir: options.configDir },
	);
	try {
		session = await VaultSession.start(open, config, log);
	} catch (error) {
		watcher.close();
		throw error;
	}
	if (early.length > 0) {
		// Written while the first read ran: that read may have seen them or not; read them again.
		session.changed(early);
		void session.refresh();
	}
	// Every call's state has every change the watcher has seen applied — including one whose event
	// is queued this very turn: it is delivered in this turn's poll phase, the check phase after it
	// sees it, and flush() hands it over without the burst delay. This is what makes a warm answer never stale.
	session.settle = async () => {
		await new Promise((resolve) => setImmediate(resolve));
		watcher.flush();
	};
	session.watcher = { running: watcher.error === null, error: watcher.error };
	if (watcher.error !== null)
		log(`file watcher unavailable (${watcher.error}); answers will not follow edits until restart`);
	// After a refresh the search index takes the changes when a search first asks (session.ts); once
	// refreshes pause, it takes them here instead — and compacts when enough edits piled up that a
	// search would first (O(postings): 0.7 s at 50k) — so neither lands on a later call. A steady
	// stream of edits still catches up every few seconds.
	let catchUp: ReturnType<typeof setTimeout> | null = null;
	let waitingSince: number | null = null;
	session.onRefresh(() => {
		waitingSince ??= Date.now();
		if (catchUp && Date.now() - waitingSince < CATCH_UP_AT_LATEST_MS) clearTimeout(catchUp);
		else if (catchUp) return;
		catchUp = setTimeout(() => {
			catchUp = waitingSince = null;
			void session
				.use(async (state) => {
					await state.engine.searchIndex();
					await state.engine.foldSearchEdits();
				})
				.catch((error: unknown) =>
					log(`search index catch-up failed: ${error instanceof Error ? error.message : String(error)}`),
				);
		}, CATCH_UP_QUIET_MS);
		catchUp.unref();
	});
	// Until the trigram index is loaded or built, calls answer by full scan.
	const trigrams = new TrigramUpkeep(session, log, { delayMs: Number(process.env[TRIGRAM_DELAY_ENV] ?? 0) || 0 });
	session.trigrams = trigrams.status;
	let loading: Promise<void> | null = null;
	const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
	return {
		session,
		watcher,
		trigrams,
		loadIndexes: () =>
			(loading ??= (async () => {
				await session.loadSearchIndex();
				await turn();
				session.warmQueries();
				await turn();
				await trigrams.start();
			})()),
		close: async () => {
			if (catchUp) clearTimeout(catchUp);
			trigrams.stop();
			watcher.close();
			await session.saves.settled(3000);
		},
	};
}
