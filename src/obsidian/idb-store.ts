/**
 * The plugin's saved indexes in the browser's IndexedDB (Obsidian's Electron window, or the
 * mobile app's web view): one database per vault, never a file in the vault or its config
 * folder, so no sync service copies it (a synced cache file is how another plugin's users lost
 * theirs). Each record holds one index part's bytes (core/snapshot/part-codec.ts) with when it was
 * saved and how many notes it covers.
 */
import { openDB, type IDBPDatabase } from 'idb';
import type { CodecHost, SnapshotStore, StoredSnapshotInfo } from '../core/snapshot/port';

/** The object store of a vault's database. */
const PARTS = 'parts';

/** One saved part as IndexedDB keeps it. */
interface PartRecord {
	bytes: Uint8Array;
	savedAt: number;
	notes: number;
}

/** What the settings tab shows of a saved index. */
export interface SavedIndexSummary extends StoredSnapshotInfo {
	/** The notes of the vault the saved index reflects. */
	notes: number;
}

/** The codec's host in a browser: TextEncoder and TextDecoder, made on first use (the checksum is the codec's own). */
export const browserCodecHost: CodecHost = (() => {
	let utf8: { encoder: TextEncoder; decoder: TextDecoder } | null = null;
	const get = (): { encoder: TextEncoder; decoder: TextDecoder } =>
		(utf8 ??= { encoder: new TextEncoder(), decoder: new TextDecoder() });
	return {
		encode: (text) => get().encoder.encode(text),
		encodeInto: (text, target, at) => get().encoder.encodeInto(text, target.subarray(at)).written,
		decode: (bytes, start, end) => get().decoder.decode(bytes.subarray(start, end)),
	};
})();

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
		const value = (await (await this.open()).get(PARTS, key)) as unknown;
		if (typeof value !== 'object' || value === null || !('bytes' in value) || !(value.bytes instanceof Uint8Array))
			return null; // none, or not ours: treated as nothing saved
		return value as PartRecord;
	}

	/** The bytes saved under `key`, or null. */
	async load(key: string): Promise<Uint8Array | null> {
		return (await this.record(key))?.bytes ?? null;
	}

	/** Replace the part under `key` (an IndexedDB put is atomic); `notes` is kept for the settings tab. */
	async save(key: string, bytes: Uint8Array | readonly Uint8Array[], notes = 0): Promise<void> {
		const record: PartRecord = { bytes: joined(bytes), savedAt: Date.now(), notes };
		await (await this.open()).put(PARTS, record, key);
	}

	/** Forget the part under `key`; true when there was one. */
	async clear(key: string): Promise<boolean> {
		const db = await this.open();
		const had = (await db.getKey(PARTS, key)) !== undefined;
		await db.delete(PARTS, key);
		return had;
	}

	/** What is saved under `key`, or null. */
	async info(key: string): Promise<SavedIndexSummary | null> {
		const record = await this.record(key);
		if (record === null) return null;
		return { location: this.name, bytes: record.bytes.length, savedAt: record.savedAt, notes: record.notes };
	}

	/** Closes the database (a plugin unloaded lets go of it, so a new instance may open it). */
	close(): void {
		const db = this.db;
		this.db = null;
		void db?.then((d) => d.close()).catch(() => undefined);
	}
}

/** One array of the chunks. */
function joined(bytes: Uint8Array | readonly Uint8Array[]): Uint8Array {
	if (bytes instanceof Uint8Array) return bytes;
	const out = new Uint8Array(bytes.reduce((n, b) => n + b.length, 0));
	let at = 0;
	for (const chunk of bytes) {
		out.set(chunk, at);
		at += chunk.length;
	}
	return out;
}
