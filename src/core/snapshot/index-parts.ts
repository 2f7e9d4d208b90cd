/**
 * The index parts of a vault — the ranked-search index and the trigram index, each under a key of
 * its own in a SnapshotStore (the CLI's cache folder, the plugin's IndexedDB) — loaded for an
 * engine (`SavedIndexes`) and saved again when the engine built or updated one. Each part is stamped with the note fingerprints it reflects,
 * so the notes changed since are re-indexed; a part that is damaged, from another build or saved
 * with other settings is ignored (and replaced once the engine has built a new one).
 */
import type { SavedIndex, SavedIndexes, VaultEngine } from '../engine/engine';
import type { NoteFingerprint } from './codec';
import { SnapshotFormatError } from './codec';
import {
	decodePartSteps,
	encodePartPiecesSteps,
	sectionBytes,
	streamPieces,
	type DecodedPart,
	type PartPiece,
	type SectionBytes,
} from './part-codec';
import type { CodecHost, SnapshotReader, SnapshotStore } from './port';
import { planReconcileSteps } from './reconcile';
import { SavedIndexDamaged, SEARCH_PART_VERSION, searchSourcesSteps } from './search-part';
import { restoreSearchIndexSteps } from './search-part-restore';
import { drain } from '../steps';
import { SavedIndexPending } from '../search/index-state';
import type { SearchIndex } from '../search/search-index';
import type { SearchSettings } from '../search/settings';
import { restoreTrigrams, trigramSections } from './trigram-part';
import { TRIGRAM_FORMAT_VERSION, TrigramFormatError, type TrigramIndex } from '../text/trigram';

/** What a save reads of an engine: its indexes, and its queue of changes (the encoding runs between two changes). */
export type SavedEngine = Pick<VaultEngine, 'builtSearchIndex' | 'trigrams' | 'settled'>;

/** A loaded part is saved again once more notes than this were re-indexed over it… */
const RESAVE_MIN_NOTES = 32;
/** …or more than one in this many of the vault's notes (50 at 50k notes: ~50 ms of re-indexing at each load). */
const RESAVE_SHARE = 1000;

/**
 * How many notes re-indexed over a loaded part make it worth saving again in a vault of `notes`
 * notes: more than 32, or than one in `share` of them (1,000 unless said); fewer are re-indexed at
 * the next load in milliseconds, which costs less than encoding the whole part.
 */
export function resaveAfter(notes: number, share = RESAVE_SHARE): number {
	return Math.max(RESAVE_MIN_NOTES, Math.floor(notes / share));
}

/** Runs a step function to its end: at once, or in time slices. */
export type StepRunner = <T>(steps: Generator<void, T, void>) => Promise<T>;

/** The CLI's runner: every step at once. */
export const atOnce: StepRunner = (steps) => Promise.resolve(drain(steps));

/** The kinds of part, each a file of its own. */
export const PART_KINDS = ['search', 'trigrams'] as const;
/** One kind of part. */
export type PartKind = (typeof PART_KINDS)[number];

/** The store key of a vault's part (the snapshot's key is the vault's real path). */
export function partKey(vaultKey: string, kind: PartKind): string {
	return `${vaultKey}\u0000${kind}`;
}

/** What the parts did in this call, for `--verbose`. */
export interface PartsReport {
	/** Per part: `loaded` (n notes re-indexed), `rebuilt` (why), `saved` (bytes). */
	notes: string[];
}

/** Everything the parts need from the opened vault. */
export interface PartsInit {
	store: SnapshotStore;
	/** UTF-8 and the checksum (Node's Buffer and zlib, a browser's TextEncoder). */
	host: CodecHost;
	vaultKey: string;
	tool: string;
	/** What shapes every part besides its own settings (config folder, size bound, Excluded files). */
	vaultSettings: string;
	fingerprints: ReadonlyMap<string, NoteFingerprint>;
	/** Build a trigram index when none is saved (the CLI: yes). */
	buildTrigrams: boolean;
}

/** The parts of one vault for one engine (see the module comment). */
export class IndexParts implements SavedIndexes {
	readonly buildTrigrams: boolean;
	/** What was handed to the engine: an index it still holds unchanged needs no save. */
	private readonly handed = new Map<PartKind, { index: unknown; changed: number }>();
	readonly report: PartsReport = { notes: [] };

	/** Parts of the vault `init` describes. */
	constructor(private readonly init: PartsInit) {
		this.buildTrigrams = init.buildTrigrams;
	}

	/** The settings string a part of `kind` must carry (the plugin's index worker writes it into the part it encodes). */
	settingsOf(kind: PartKind, search?: SearchSettings): string {
		return JSON.stringify({
			kind,
			vault: this.init.vaultSettings,
			version: kind === 'search' ? SEARCH_PART_VERSION : TRIGRAM_FORMAT_VERSION,
			search: search ?? null,
		});
	}

	/**
	 * The saved part of `kind`, when it is this build's and has these settings; `run` runs the
	 * decoding's steps. `stamps: false`: its notes' paths and stamps are left unread.
	 */
	private async load(kind: PartKind, settings: string, run: StepRunner, stamps = true): Promise<DecodedPart | null> {
		let bytes: Uint8Array | SnapshotReader | null;
		try {
			const key = partKey(this.init.vaultKey, kind);
			// Read in place where the store can: a search reads a few blocks of its part, not all of it.
			const { store } = this.init;
			bytes = store.openReader
				? checkedReads(store.openReader(key))
				: store.loadReader
					? checkedReads(await store.loadReader(key))
					: await store.load(key);
		} catch {
			return null;
		}
		if (bytes === null) return null;
		try {
			const part = await run(decodePartSteps(bytes, this.init.host, stamps));
			if (part.kind !== kind || part.tool !== this.init.tool) return this.skip(kind, 'saved by another build');
			if (part.settings !== settings) return this.skip(kind, 'saved with other settings');
			return part;
		} catch (error) {
			if (error instanceof SnapshotFormatError) return this.skip(kind, error.message);
			throw error;
		}
	}

	private skip(kind: PartKind, why: string): null {
		this.report.notes.push(`${kind} index: ${why}; rebuilt`);
		return null;
	}

	/** Notes the part does not reflect: changed, new, or gone since it was saved (by the vault's `fingerprints` now). */
	private *changedSince(part: DecodedPart, fingerprints = this.init.fingerprints): Generator<void, string[], void> {
		const plan = yield* planReconcileSteps(
			{ paths: part.paths, fingerprint: (i) => part.fingerprint(i), same: (i, now) => part.same(i, now) },
			fingerprints,
		);
		return [...plan.reread, ...plan.removed];
	}

	/**
	 * The index `restore` makes from `part`, handed over with the notes it does not reflect; null (said
	 * in the report) when the part fails a check: its format, the index's own (`damaged`), or its JSON.
	 */
	private async restored<T>(
		kind: PartKind,
		part: DecodedPart,
		restore: () => Generator<void, T, void>,
		damaged: new (...args: never[]) => Error,
		run: StepRunner,
		plan = true,
	): Promise<SavedIndex<T> | null> {
		try {
			const index = await run(restore());
			if (!plan) return { index, changed: [] }; // handed (and reported) once compared
			return this.hand(kind, index, await run(this.changedSince(part)));
		} catch (error) {
			if (error instanceof SnapshotFormatError || error instanceof damaged || error instanceof SyntaxError)
				return this.skip(kind, error.message);
			throw error;
		}
	}

	private hand<T>(kind: PartKind, index: T, changed: string[]): SavedIndex<T> {
		this.handed.set(kind, { index, changed: changed.length });
		this.report.notes.push(`${kind} index loaded (${changed.length} notes re-indexed)`);
		return { index, changed };
	}

	/**
	 * The saved ranked-search index for `settings`, or null. `run` runs the decoding's steps: at once
	 * (the CLI), or in a main thread's time slices (the plugin).
	 */
	async searchIndex(settings: SearchSettings, run: StepRunner = atOnce): Promise<SavedIndex<SearchIndex> | null> {
		const part = await this.load('search', this.settingsOf('search', settings), run);
		if (part === null) return null;
		return this.restored(
			'search',
			part,
			() => restoreSearchIndexSteps(part, settings, this.init.host),
			SavedIndexDamaged,
			run,
		);
	}

	/**
	 * The saved ranked-search index for `settings` restored before its notes are compared with the
	 * vault's, or null: its paths and stamps are left unread, and `changed` reads them, compares them
	 * with the `fingerprints` the vault has then and returns the notes it does not reflect (in steps;
	 * a damaged block throws SnapshotFormatError). A host answers searches from the index in between
	 * (the plugin: its first search answers before that work over every note).
	 */
	async searchIndexFirst(
		settings: SearchSettings,
		run: StepRunner = atOnce,
	): Promise<{
		index: SearchIndex;
		changed: (fingerprints: ReadonlyMap<string, NoteFingerprint>) => Generator<void, string[], void>;
	} | null> {
		const part = await this.load('search', this.settingsOf('search', settings), run, false);
		if (part === null) return null;
		const restored = await this.restored(
			'search',
			part,
			() => restoreSearchIndexSteps(part, settings, this.init.host),
			SavedIndexDamaged,
			run,
			false,
		);
		if (restored === null) return null;
		return {
			index: restored.index,
			changed: (fingerprints) => this.comparedSteps(part, restored.index, fingerprints),
		};
	}

	/** The notes `part` does not reflect (its stamps read now), and `index` handed with them. */
	private *comparedSteps(
		part: DecodedPart,
		index: SearchIndex,
		fingerprints: ReadonlyMap<string, NoteFingerprint>,
	): Generator<void, string[], void> {
		yield* part.readStampsSteps();
		const changed = yield* this.changedSince(part, fingerprints);
		this.hand('search', index, changed);
		return changed;
	}

	/** A saved search index failed a check in use: say so (the engine builds a new one, saved in its place). */
	damaged(kind: 'search', reason: string): void {
		this.skip(kind, reason);
	}

	/** The saved trigram index, or null. */
	async trigramIndex(): Promise<SavedIndex<TrigramIndex> | null> {
		const part = await this.load('trigrams', this.settingsOf('trigrams'), atOnce);
		if (part === null) return null;
		const host = this.init.host;
		return this.restored(
			'trigrams',
			part,
			// eslint-disable-next-line require-yield -- the trigram part is small: restored in one step
			function* () {
				return restoreTrigrams(
					(name) => part.section(name),
					host,
					(name) => part.rangeReader(name),
				);
			},
			TrigramFormatError,
			atOnce,
		);
	}

	/**
	 * Whether the engine holds an index of `kind` worth saving over the saved one: one it built, or
	 * the saved one with more notes re-indexed than `resaveAfter`. A few re-indexed notes are not
	 * worth a save: encoding a whole part held ~400 MB more at 50k notes for a server that had found
	 * one note changed, while the next load re-indexes those notes again in milliseconds.
	 */
	private dirty(kind: PartKind, index: unknown, resaveAfter: number): boolean {
		if (index === null) return false;
		const handed = this.handed.get(kind);
		return handed === undefined || handed.index !== index || handed.changed > resaveAfter;
	}

	/**
	 * Save the parts (of `kinds`, default all) the engine built or updated; a failure is returned as
	 * a message, never thrown. `always`: save a part that took any re-indexed note (`index` does).
	 * `run` runs the encoding's steps: at once (the CLI), or in a main thread's time slices (the
	 * plugin) — the engine's changes wait meanwhile, so the index is not edited under the encoding.
	 */
	async save(
		engine: SavedEngine,
		kinds: readonly PartKind[] = PART_KINDS,
		always = false,
		run: StepRunner = atOnce,
	): Promise<string | null> {
		const search = kinds.includes('search') ? engine.builtSearchIndex : null;
		const trigrams = kinds.includes('trigrams') ? engine.trigrams : null;
		const host = this.init.host;
		const threshold = always ? 0 : resaveAfter(this.init.fingerprints.size);
		const jobs: [PartKind, string, () => Generator<void, Record<string, SectionBytes>, void>][] = [];
		if (search !== null && this.dirty('search', search, threshold))
			jobs.push([
				'search',
				this.settingsOf('search', search.settings),
				() => searchSourcesSteps(search, this.init.host),
			]);
		if (trigrams !== null && this.dirty('trigrams', trigrams, threshold))
			jobs.push([
				'trigrams',
				this.settingsOf('trigrams'),
				// eslint-disable-next-line require-yield -- the trigram part is small: encoded in one step
				function* () {
					return trigramSections(trigrams, host);
				},
			]);
		for (const [kind, settings, sections] of jobs) {
			try {
				// In pieces (header, sections): the store writes them one after another, never joined here.
				const pieces = await engine.settled(() =>
					run(
						(function* (init: PartsInit) {
							const part = { kind, tool: init.tool, settings, stamps: init.fingerprints };
							return yield* encodePartPiecesSteps({ ...part, sections: yield* sections() }, init.host);
						})(this.init),
					),
				);
				const size = pieces.reduce((n, c) => n + c.length, 0);
				await this.write(partKey(this.init.vaultKey, kind), size, pieces);
				this.report.notes.push(`${kind} index saved (${(size / 1e6).toFixed(1)} MB)`);
			} catch (error) {
				return `the ${kind} index could not be saved (${error instanceof Error ? error.message : String(error)})`;
			}
		}
		return null;
	}

	/**
	 * Writes a part's pieces: as they are made, where the store can (a made section — the postings
	 * in term order — is then never held whole); else each made section filled into an array first.
	 */
	private write(key: string, size: number, pieces: readonly PartPiece[]): Promise<void> {
		const { store } = this.init;
		if (store.saveStreamed) return store.saveStreamed(key, size, streamPieces(pieces));
		return store.save(key, pieces.map(sectionBytes));
	}
}

/** A file read whose failure (the file cut short under it) reads as a damaged part. */
function checkedReads(bytes: SnapshotReader | null): SnapshotReader | null {
	if (bytes === null) return null;
	return {
		size: bytes.size,
		read: (offset, length) => {
			try {
				return bytes.read(offset, length);
			} catch (error) {
				if (error instanceof SavedIndexPending) throw error; // loaded later, not damaged
				throw new SnapshotFormatError(
					`part unreadable (${error instanceof Error ? error.message : String(error)})`,
				);
			}
		},
	};
}
