/**
 * The snapshot's ports: UTF-8 conversion and a checksum (core has neither Node's Buffer nor the
 * DOM's TextEncoder, so the host lends them) and the store that keeps snapshot bytes somewhere outside
 * the vault. Core encodes and decodes; a face decides where the bytes live.
 */

/** What the codec borrows from its host: UTF-8 (Buffer in Node, TextEncoder in a browser) and a native checksum. */
export interface CodecHost {
	/** The UTF-8 bytes of `text`. */
	encode(text: string): Uint8Array;
	/** Writes `text` as UTF-8 into `target` at `at` (room for 3 bytes per UTF-16 unit is there); returns the bytes written. Optional: `encode` and a copy otherwise. */
	encodeInto?(text: string, target: Uint8Array, at: number): number;
	/** The text of `bytes[start, end)`. */
	decode(bytes: Uint8Array, start: number, end: number): string;
	/** A 32-bit checksum of `bytes` (CRC-32 in Node); the codec's own JS one when absent. */
	checksum?(bytes: Uint8Array): number;
}

/** What a store knows about one saved snapshot without decoding it. */
export interface StoredSnapshotInfo {
	/** Where it lives (a file path for the Node store). */
	location: string;
	/** Size in bytes. */
	bytes: number;
	/** When it was last written, ms since the epoch. */
	savedAt: number;
}

/** Keeps one snapshot per key (a vault's real path); never inside the vault. */
export interface SnapshotStore {
	/** The bytes saved under `key`, or null when there are none. */
	load(key: string): Promise<Uint8Array | null>;
	/** Replace the snapshot under `key` atomically (a reader sees the old or the new one, never half); chunks are written one after another. */
	save(key: string, bytes: Uint8Array | readonly Uint8Array[]): Promise<void>;
	/**
	 * Optional: replace the snapshot under `key` as `save` does, its `size` bytes given as pieces
	 * made one after another — each valid only until the next is asked for, so a store writes it
	 * at once and keeps no reference (a large part is then never held whole in memory).
	 */
	saveStreamed?(key: string, size: number, pieces: Iterable<Uint8Array>): Promise<void>;
	/** Forget the snapshot under `key`; true when there was one. */
	clear(key: string): Promise<boolean>;
	/** What is saved under `key`, or null. */
	info(key: string): Promise<StoredSnapshotInfo | null>;
	/**
	 * Optional: the snapshot under `key` opened for reads at offsets (null when there is none), so
	 * a caller reads only the parts it needs. The reader keeps seeing the snapshot it opened even
	 * when a newer one replaces it.
	 */
	openReader?(key: string): SnapshotReader | null;
	/**
	 * Optional: the bytes under `key` loaded as a reader (null when there are none), for a store that
	 * keeps them in pieces (IndexedDB's records): reads are views of the pieces, with no copy of the
	 * whole into one array.
	 */
	loadReader?(key: string): Promise<SnapshotReader | null>;
}

/** Random access to a saved snapshot's bytes: a file read at offsets, or bytes in memory. */
export interface SnapshotReader {
	/** Total size in bytes. */
	readonly size: number;
	/**
	 * `length` bytes from `offset` (throws when they cannot be read). `scratch`: where bytes that are
	 * not one view of what the reader holds may be copied instead of into a new array, for a caller
	 * that copies them out before it passes `scratch` again.
	 */
	read(offset: number, length: number, scratch?: Uint8Array): Uint8Array;
}
