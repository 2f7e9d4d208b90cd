/**
 * Reads one note from disk for indexing: size limit, binary sniff, UTF-8 decoding, BOM strip.
 * Never opens a file for writing.
 */
import { isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { formatSize } from '../core/size';
import { loneCrAsLf } from './parser/line-ends';

const MIB = 1024 * 1024;
const KIB = 1024;
/** Default note size limit. Obsidian reads notes of any size; 5 MB keeps one pasted log or data dump from stalling a query. */
export const DEFAULT_MAX_FILE_SIZE = 5 * MIB;
/** Git and editors treat a NUL in the first 8 KB as the mark of a binary file; so do we. */
const BINARY_SNIFF_BYTES = 8 * KIB;

/** The skip reason for a note over the limit; exact bytes when rounding would hide the difference. */
function tooLargeReason(size: number, limit: number): string {
	const shown = formatSize(size) === formatSize(limit) ? `${size} bytes` : formatSize(size);
	return `larger than ${formatSize(limit)} (${shown})`;
}

/** The error code of a failed fs call (`ENOENT`, `EACCES`…), or its message. */
export function errorCode(error: unknown): string {
	if (error instanceof Error) {
		const code = 'code' in error ? error.code : undefined;
		return typeof code === 'string' ? code : error.message;
	}
	return String(error);
}

/** What reading one note produced, before parsing. */
export type ReadOutcome = { text: string; mtime: number; bytes: number } | { skipReason: string; mtime: number | null };

/**
 * Flags for every read: read-only, and non-blocking so that opening a FIFO (a named pipe posing
 * as a note or as `.obsidian/app.json`) returns at once instead of waiting for a writer forever.
 */
export const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Why an opened file is not read (a FIFO, socket or device), or null for a regular file. */
export function notRegularReason(info: Stats): string | null {
	if (info.isFile()) return null;
	return info.isFIFO()
		? 'a FIFO, not a regular file'
		: info.isDirectory()
			? 'a folder, not a file'
			: 'not a regular file';
}

/** The outcome of a note whose stat is `info` when it is not read at all (not a regular file, over `maxFileSize`), or null: read it. */
function skipBeforeRead(info: Stats, maxFileSize: number): ReadOutcome | null {
	const reason = notRegularReason(info) ?? (info.size > maxFileSize ? tooLargeReason(info.size, maxFileSize) : null);
	return reason === null ? null : { skipReason: reason, mtime: Math.floor(info.mtimeMs) };
}

/** The outcome of a note whose open, stat or read failed with `error`. */
function unreadable(error: unknown): ReadOutcome {
	return { skipReason: `unreadable (${errorCode(error)})`, mtime: null };
}

/** True when the bytes start with a UTF-16 byte order mark (FF FE or FE FF). */
function hasUtf16Bom(bytes: Buffer): boolean {
	return bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
}

/** The skip reason of bytes that are not UTF-8, naming the line of the first bad byte. */
function invalidUtf8Reason(bytes: Buffer): string {
	const text = bytes.toString('utf8');
	const bad = text.indexOf('\uFFFD');
	let line = 1;
	for (let i = text.indexOf('\n'); i >= 0 && i < bad; i = text.indexOf('\n', i + 1)) line++;
	return `not valid UTF-8 (first bad byte on line ${line}): convert the file to UTF-8`;
}

/** Why a note's bytes are not read as text (UTF-16, binary, not UTF-8), or null. */
function skipReasonOf(bytes: Buffer): string | null {
	if (hasUtf16Bom(bytes)) return 'UTF-16: convert the file to UTF-8 (Obsidian reads UTF-8 only)';
	if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return 'binary content';
	if (!isUtf8(bytes)) return invalidUtf8Reason(bytes);
	return null;
}

/**
 * Decodes a note's bytes: UTF-16 and binary files are skipped, invalid UTF-8 is reported (never
 * replaced silently), a UTF-8 BOM is stripped (Obsidian strips it too), lone CRs read as LFs.
 */
function decode(bytes: Buffer, mtime: number): ReadOutcome {
	const skipReason = skipReasonOf(bytes);
	if (skipReason !== null) return { skipReason, mtime };
	const text = bytes.toString('utf8');
	return { text: loneCrAsLf(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text), mtime, bytes: bytes.length };
}

/**
 * A read buffer reused across notes: decoding copies the bytes into a string anyway, and one
 * growing buffer spares the collector 43 MB of short-lived buffers on obsidian-help-i18n (a few
 * per cent of the read phase, measured).
 */
export class ScratchBuffer {
	private buffer = Buffer.allocUnsafe(64 * KIB);

	/** A buffer of at least `size` bytes; its content is garbage until written. */
	take(size: number): Buffer {
		if (this.buffer.length < size) this.buffer = Buffer.allocUnsafe(Math.max(size, this.buffer.length * 2));
		return this.buffer;
	}
}

/** Reads one note synchronously: one open, one fstat, reads until the stat size, one close. */
export function readNoteSync(
	absPath: string,
	maxFileSize: number,
	scratch: ScratchBuffer,
	onStat?: (info: Stats) => void,
): ReadOutcome {
	const read = readBytesSync(absPath, maxFileSize, scratch, onStat);
	return 'bytes' in read ? decode(read.bytes, read.mtime) : read.outcome;
}

/**
 * One note's bytes as `readNoteSync` would decode them (byte order mark left out), in `scratch`
 * (valid until its next use); null when `readNoteSync` would skip the note or not read it.
 */
export function readNoteBytesSync(absPath: string, maxFileSize: number, scratch: ScratchBuffer): Buffer | null {
	const read = readBytesSync(absPath, maxFileSize, scratch);
	return 'bytes' in read ? noteBytes(read.bytes) : null;
}

/**
 * `readNoteBytesSync` of a note whose size is known (its fingerprint): one open, one read of a byte
 * more than that size, one close, no fstat (the Stats object it makes, dates and all, cost about
 * as much as the read over a full answer's 41,000 files). Null when the file does not hold exactly
 * `size` bytes now (grown, shrunk, or no longer a regular file: a FIFO opened without blocking
 * reads nothing, a folder fails) — read it with its fstat then — or is not a note's UTF-8.
 */
export function readKnownBytesSync(absPath: string, size: number, scratch: Pick<ScratchBuffer, 'take'>): Buffer | null {
	let fd: number;
	try {
		fd = openSync(absPath, READ_FLAGS);
	} catch {
		return null;
	}
	try {
		const bytes = scratch.take(size + 1);
		return readSync(fd, bytes, 0, size + 1, 0) === size ? noteBytes(bytes.subarray(0, size)) : null;
	} catch {
		return null;
	} finally {
		closeSync(fd);
	}
}

/** A file's bytes as a note's (byte order mark left out), or null when `readNoteSync` would skip them. */
function noteBytes(bytes: Buffer): Buffer | null {
	if (skipReasonOf(bytes) !== null) return null;
	return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
}

/** The file's bytes (in `scratch`) and mtime, or the outcome of a file not read. */
function readBytesSync(
	absPath: string,
	maxFileSize: number,
	scratch: ScratchBuffer,
	onStat?: (info: Stats) => void,
): { bytes: Buffer; mtime: number } | { outcome: ReadOutcome } {
	let fd: number;
	try {
		fd = openSync(absPath, READ_FLAGS);
	} catch (error) {
		return { outcome: unreadable(error) };
	}
	try {
		const info = fstatSync(fd);
		onStat?.(info);
		const skip = skipBeforeRead(info, maxFileSize);
		if (skip !== null) return { outcome: skip };
		const bytes = scratch.take(info.size);
		let filled = 0;
		// A file that shrinks between fstat and read ends the loop early; the tail is cut off below.
		while (filled < info.size) {
			const n = readSync(fd, bytes, filled, info.size - filled, filled);
			if (n === 0) break;
			filled += n;
		}
		return { bytes: bytes.subarray(0, filled), mtime: Math.floor(info.mtimeMs) };
	} catch (error) {
		return { outcome: unreadable(error) };
	} finally {
		closeSync(fd);
	}
}

/** Reads one note through fs/promises: the same steps as `readNoteSync`, the read in one call. */
export async function readNoteAsync(absPath: string, maxFileSize: number): Promise<ReadOutcome> {
	let handle;
	try {
		handle = await open(absPath, READ_FLAGS);
	} catch (error) {
		return unreadable(error);
	}
	try {
		const info = await handle.stat();
		const skip = skipBeforeRead(info, maxFileSize);
		if (skip !== null) return skip;
		// A file that grows after the stat is cut at the stat's size, as readNoteSync does.
		const bytes = await handle.readFile();
		return decode(bytes.subarray(0, info.size), Math.floor(info.mtimeMs));
	} catch (error) {
		return unreadable(error);
	} finally {
		await handle.close();
	}
}

/** Side and config files larger than this are refused (Obsidian's own config files are a few KB). */
export const MAX_SIDE_FILE_SIZE = 16 * MIB;

/**
 * A regular file's UTF-8 text, for config and side files: throws ENOENT like `readFile` when it is
 * missing, and an error naming the problem for a FIFO, a folder or a file over `maxBytes`.
 */
export async function readRegularText(absPath: string, maxBytes = MAX_SIDE_FILE_SIZE): Promise<string> {
	const handle = await open(absPath, READ_FLAGS);
	try {
		const info = await handle.stat();
		const irregular = notRegularReason(info);
		if (irregular !== null) throw Object.assign(new Error(`${absPath}: ${irregular}`), { code: 'ENOTREG' });
		if (info.size > maxBytes)
			throw Object.assign(new Error(`${absPath}: ${tooLargeReason(info.size, maxBytes)}`), { code: 'EFBIG' });
		return (await handle.readFile()).toString('utf8');
	} finally {
		await handle.close();
	}
}
