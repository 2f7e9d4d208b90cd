/** A file's stamp as a fingerprint gives it (codec.ts's NoteFingerprint, racy flag aside). */
interface Stamp {
	size: number;
	mtimeMs: number;
	ctimeMs: number;
	ino: number;
}

/**
 * Whether the saved stamp at `c[at]` — size, modification time, status-change time, inode, in that
 * order — is `now`, without making it an object (50k of them at a restart). The racy flag is the
 * caller's: its column differs between the snapshot and a saved part.
 */
export function stampIs(c: ArrayLike<number>, at: number, now: Stamp): boolean {
	return c[at] === now.size && c[at + 1] === now.mtimeMs && c[at + 2] === now.ctimeMs && c[at + 3] === now.ino;
}
