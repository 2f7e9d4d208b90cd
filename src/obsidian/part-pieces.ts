/**
 * A saved part's bytes in pieces of one size: the records IndexedDB keeps (idb-store.ts) and the
 * messages that bring the part from the index worker (worker-build.ts) are the same pieces, so
 * what the worker encoded is saved as it came, never joined into one array nor copied again.
 */

/** Bytes per piece of a saved part. */
export const PIECE_BYTES = 1 << 18; // why: Chromium's IndexedDB costs the main thread ~9 ms to put a 1 MB record and ~1.5 ms for 256 kB (8 MB in 1 MB records: ~200 ms of puts, ~240 ms to read back; in 256 kB records ~50 and ~90 ms), and a 130 MB part arriving as one buffer made the main thread collect its whole heap at once (1–1.5 s at 50k notes).

/**
 * The bytes of `parts` laid end to end, in pieces of `size` bytes (the last fewer), each with a
 * buffer of its own — a copy, made when the piece before it is taken (the whole is never joined
 * into one array), or the part itself when it already is such a piece (a view would be stored or
 * sent with the whole buffer under it). With `reuse`, every full piece is the same buffer, filled
 * again when the next is asked for: for a consumer that copies each piece at once (an IndexedDB
 * put), so a 127 MB save touches one fresh MB, not 127 (fresh pages and the collections their
 * external memory sets off were the re-save's longest blocks).
 */
export function* partPieces(
	parts: Iterable<Uint8Array>,
	size = PIECE_BYTES,
	reuse = false,
): Generator<Uint8Array, void, void> {
	let piece = new Uint8Array(size);
	let filled = 0;
	for (const part of parts) {
		if (filled === 0 && part.length === size && part.byteOffset === 0 && part.buffer.byteLength === size) {
			yield part;
			continue;
		}
		for (let at = 0; at < part.length;) {
			const n = Math.min(size - filled, part.length - at);
			piece.set(part.subarray(at, at + n), filled);
			filled += n;
			at += n;
			if (filled === size) {
				yield piece;
				if (!reuse) piece = new Uint8Array(size);
				filled = 0;
			}
		}
	}
	if (filled > 0) yield piece.slice(0, filled);
}
