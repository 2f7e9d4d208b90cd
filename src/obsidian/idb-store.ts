/**
 * The plugin's saved indexes in the browser's IndexedDB (Obsidian's Electron window, or the
 * mobile app's web view): one database per vault, never a file in the vault or its config
 * folder, so no sync service copies it (a synced cache file is how another plugin's users lost
 * theirs). Each record holds one index part's bytes (core/snapshot/part-codec.ts) with when it was
 * saved and how many notes it covers.
 */
import { openDB, type IDBPDatabase } from 'idb';
import { concatBytes } from '../core/snapshot/bytes';
import { chunkedPart } from '../core/snapshot/part-codec';
import { LazyPart } from './lazy-part';
import { partPieces, PIECE_BYTES } from './part-pieces';
import type { SnapshotReader, SnapshotStore, StoredSnapshotInfo } from '../core/snapshot/port';

/** The object store of a vault's database. */
const PARTS = 'parts';
/**
 * Records of a restore asked for ahead of the one awaited: enough that the database reads the next
 * while one is taken, few enough that no burst of them is handed over in one task.
 */
const READS_IN_FLIGHT = 4;

/** Bytes per record of a saved part: the pieces a part comes in from the index worker. */
export const CHUNK_BYTES = PIECE_BYTES;

/**
 * One saved part as IndexedDB keeps it: this head under the part's key, and its bytes in
 * records of CHUNK_BYTES under `[key, 0]`, `[key, 1]`, … — each read or written in a task of
 * its own, so no copy of a whole part holds the main thread. (A part saved whole, by an earlier
 * version, reads as none: the index is built and saved over it.)
 */
interface PartRecord {
	chunks: number;
	length: number;
	savedAt: number;
	notes: number;
}

/** What the settings tab shows of a saved index. */
export interface SavedIndexSummary extends StoredSnapshotInfo {
	/** The notes of the vault the saved index reflects. */
	notes: number;
}

/** The database name of a vault: the app's id for it (unique per vault on a device) and its name, for whoever looks in the developer tools. */
export function databaseName(appId: string, vaultName: string): string {
	return `vault-query-index/${appId}/${vaultName}`;
}

/** A SnapshotStore on IndexedDB (see the module comment); any failure of IndexedDB is thrown to the caller. */
export class IndexedDbStore implements SnapshotStore {
	private db: Promise<IDBPDatabase> | null = null;

	/** `name`: the vault's database (see {@link databaseName}); nothing is opened until used. */
	constructor(readonly name: string) {}

	/** The database, opened once (throws when IndexedDB is missing or refuses, e.g. in a private window). */
	open(): Promise<IDBPDatabase> {
		if (this.db === null) {
			if (typeof indexedDB === 'undefined') return Promise.reject(new Error('IndexedDB is not available'));
			const opening = openDB(this.name, 1, { upgrade: (db) => db.createObjectStore(PARTS) });
			// A failed open is tried again next time (the storage may come back), not cached.
			opening.catch(() => (this.db = null));
			this.db = opening;
		}
		return this.db;
	}

	private async record(key: string): Promise<PartRecord | null> {
		return headOf((await (await this.open()).get(PARTS, key)) as unknown);
	}

	/** The bytes saved under `key`, or null (none, or chunks missing). Each chunk comes in a task of its own. */
	async load(key: string): Promise<Uint8Array | null> {
		const loaded = await this.chunks(key);
		return loaded === null ? null : concatBytes(loaded.chunks);
	}

	/**
	 * The bytes saved under `key` as a reader over its chunks, or null: no copy of the whole part
	 * into one array (at 50k notes a fresh 130 MB array and its copy cost more than the reads).
	 */
	async loadReader(key: string): Promise<SnapshotReader | null> {
		const loaded = await this.chunks(key);
		return loaded === null ? null : chunkedPart(loaded.chunks, loaded.length);
	}

	/**
	 * The bytes saved under `key` as a reader that loads the records wholly inside the spans
	 * `deferred` names (given a reader of the first record: the part's header) only when a read asks
	 * for them (lazy-part.ts), or null. Each such record is read later with the head, in a
	 * transaction of its own: a record of another save than the one opened reads as damaged.
	 */
	async loadLazy(key: string, deferred: (head: SnapshotReader) => [number, number][]): Promise<LazyPart | null> {
		const db = await this.open();
		const tx = db.transaction(PARTS);
		const head = headOf(await tx.store.get(key));
		if (head === null || head.chunks !== Math.ceil(head.length / CHUNK_BYTES) || head.chunks === 0) return null;
		const chunks: (Uint8Array | null)[] = new Array<Uint8Array | null>(head.chunks).fill(null);
		const load = async (i: number): Promise<Uint8Array | null> => {
			const read = db.transaction(PARTS);
			const [now, chunk] = await Promise.all<unknown>([read.store.get(key), read.store.get([key, i])]);
			const same = headOf(now)?.savedAt === head.savedAt && headOf(now)?.length === head.length;
			return same && chunk instanceof Uint8Array ? chunk : null;
		};
		const part = new LazyPart(chunks, head.length, CHUNK_BYTES, load);
		const first: unknown = await tx.store.get([key, 0]);
		if (!(first instanceof Uint8Array)) return null;
		chunks[0] = first;
		const later = new Set<number>();
		for (const [from, to] of deferred(part))
			for (let c = Math.ceil(from / CHUNK_BYTES); (c + 1) * CHUNK_BYTES <= to; c++) later.add(c);
		// The others a few at a time: asked for all at once, Chromium handed a burst of them over in one task (50–65 ms at 50k notes).
		const wanted: number[] = [];
		for (let i = 1; i < head.chunks; i++) if (!later.has(i)) wanted.push(i);
		const reads = wanted.slice(0, READS_IN_FLIGHT).map((i) => tx.store.get([key, i]));
		for (let n = 0; n < wanted.length; n++) {
			const i = wanted[n]!;
			const chunk: unknown = await reads[n];
			const next = wanted[n + READS_IN_FLIGHT];
			if (next !== undefined) reads.push(tx.store.get([key, next]));
			if (!(chunk instanceof Uint8Array) || chunk.length !== Math.min(CHUNK_BYTES, head.length - i * CHUNK_BYTES))
				return null;
			chunks[i] = chunk;
		}
		return part;
	}

	/** The chunks saved under `key` and their total length, or null (none, or chunks missing or not adding up). */
	private async chunks(key: string): Promise<{ chunks: Uint8Array[]; length: number } | null> {
		const tx = (await this.open()).transaction(PARTS);
		const head = headOf(await tx.store.get(key));
		if (head === null || head.chunks !== Math.ceil(head.length / CHUNK_BYTES)) return null;
		// Every record asked for at once: the database reads the next while the one before is copied
		// here (a browser's IndexedDB reads in another process), instead of a round trip per record.
		// Each still comes in a task of its own.
		const reads: Promise<unknown>[] = [];
		for (let i = 0; i < head.chunks; i++) reads.push(tx.store.get([key, i]));
		const chunks: Uint8Array[] = [];
		let at = 0;
		for (const chunk of await Promise.all(reads)) {
			if (!(chunk instanceof Uint8Array) || at + chunk.length > head.length) return null;
			chunks.push(chunk);
			at += chunk.length;
		}
		return at === head.length ? { chunks, length: at } : null;
	}

	/**
	 * Replace the part under `key` in one transaction (a reader sees the old part or the new one);
	 * each chunk is put when the one before is written, so each copy is a task of its own.
	 * `notes` is kept for the settings tab.
	 */
	async save(key: string, bytes: Uint8Array | Iterable<Uint8Array>, notes = 0): Promise<void> {
		const pieces = bytes instanceof Uint8Array ? [bytes] : bytes;
		let length = 0;
		let chunks = 0;
		const tx = (await this.open()).transaction(PARTS, 'readwrite');
		const done = tx.done;
		try {
			// The pieces may be made as they are asked for, into one reused buffer, and the records too: a put copies its record at once.
			for (const record of partPieces(pieces, CHUNK_BYTES, true)) {
				length += record.length;
				await tx.store.put(record, [key, chunks++]);
			}
			await tx.store.delete(IDBKeyRange.bound([key, chunks], [key, Infinity]));
			const head: PartRecord = { chunks, length, savedAt: Date.now(), notes };
			await tx.store.put(head, key);
		} catch (error) {
			done.catch(() => undefined);
			throw error;
		}
		await done;
	}

	/** Forget the part under `key`; true when there was one. */
	async clear(key: string): Promise<boolean> {
		const tx = (await this.open()).transaction(PARTS, 'readwrite');
		const had = (await tx.store.getKey(key)) !== undefined;
		await tx.store.delete(key);
		await tx.store.delete(IDBKeyRange.bound([key, 0], [key, Infinity]));
		await tx.done;
		return had;
	}

	/** What is saved under `key`, or null. */
	async info(key: string): Promise<SavedIndexSummary | null> {
		const record = await this.record(key);
		if (record === null) return null;
		return { location: this.name, bytes: record.length, savedAt: record.savedAt, notes: record.notes };
	}

	/** Closes the database (a plugin unloaded lets go of it, so a new instance may open it). */
	close(): void {
		const db = this.db;
		this.db = null;
		void db?.then((d) => d.close()).catch(() => undefined);
	}
}

/** A part's head record, or null (none, or not ours: treated as nothing saved). */
function headOf(value: unknown): PartRecord | null {
	if (typeof value !== 'object' || value === null) return null;
	const record = value as Partial<PartRecord>;
	if (typeof record.chunks !== 'number' || typeof record.length !== 'number') return null;
	return record as PartRecord;
}
