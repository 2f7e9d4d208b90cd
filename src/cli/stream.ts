/**
 * Answers written as they are found: a grep or text-search with a high `--limit` hands each matching note to
 * the output as the scan reaches it, in chunks, so neither this process nor the background server
 * ever holds the whole answer (at 50k notes a full answer is tens of MB of text and JSON).
 */
import type { NoteResult, QueryResult } from '../core/contract';
import { displayLines, escapeControls, escapeTerminal } from '../core/display';
import type { VaultEngine } from '../core/engine/engine';
import { renderNote, renderSummary } from '../core/query/render-text';
import type { RawLines } from '../core/query/note-matches';
import type { GrepQuery } from '../core/query/types';
import { GarbageBound } from '../warm/garbage-bound';
import { boolFlag, type ParsedArgs } from './args';
import { emitAnswer, EXIT, MORE, type CommandIO } from './command';
import { ESCAPE_CLASS, escapedAt, noteMayEscape } from './escape-scan';

/** Answers that may hold more results than this are streamed; smaller ones are built whole (their count first). */
export const STREAM_ABOVE = 500;

/** A streamed answer reaches the writer in chunks of about this many bytes (one note's result more at most). */
export const CHUNK_BYTES = 256 * 1024;

/**
 * How much output passes between two looks at the garbage bound: a full `--json` answer makes
 * several MB of garbage per 256 KB of output, and looking once per chunk let the server's peak at
 * 50k notes rise ~10 MB past what it was with 64 KB chunks (over 300 MB).
 */
const CHECK_BYTES = 64 * 1024;

/** Garbage a streamed answer may leave before it collects (a smaller allowance than a build's). */
const STREAM_GARBAGE_ALLOWANCE = 32 << 20; // why: with the build's 64 MB a full `--json` answer at 50k peaked the server at 300–311 MB, over its 300 MB (278–283 MB at 32 MB, at ~1.5× its CPU; 48 MB left 294–301 MB).

/** Lines of at most this many bytes are copied byte by byte (see `ChunkWriter.copyLine`). */
const SHORT_LINE = 32;

/** Room past CHUNK_BYTES in a chunk's buffer, for the note that fills it (a longer note's result grows the buffer). */
const CHUNK_SLACK = 16 * 1024;

/**
 * Gathers a streamed answer's parts, encoded as they come into the chunk's bytes, and hands
 * them to `io.write` a chunk at a time, waiting for the reader between chunks. The parts are
 * what is printed, terminal escapes already spelled out where text needs them (AnswerStream).
 * Every CHECK_BYTES of output `bound` collects once the answer's garbage has grown past its allowance (in
 * a server, where a full collection can be asked for): V8 let a full `--json` answer's garbage —
 * every result object, its links and its JSON, promoted past the young generation — pile up to
 * ~550 MB at 50k notes before its own collection, though what is alive stayed flat.
 */
export class ChunkWriter {
	private buffer = Buffer.allocUnsafe(CHUNK_BYTES + CHUNK_SLACK);
	private size = 0;
	/** The chunk's size at which the garbage bound is looked at next (see `settle`). */
	private nextCheck = CHECK_BYTES;

	constructor(
		private readonly io: CommandIO,
		private readonly bound = new GarbageBound(undefined, STREAM_GARBAGE_ALLOWANCE),
	) {}

	/** Adds `text`; a full chunk is written (and its reader waited for) before this resolves. */
	async add(text: string): Promise<void> {
		this.put(text);
		await this.settle();
	}

	/** Adds `text` to the chunk (see `settle`). */
	put(text: string): void {
		// UTF-8 takes at most three bytes per UTF-16 code unit.
		this.room(3 * text.length);
		this.size += this.buffer.write(text, this.size, 'utf8');
	}

	/**
	 * Adds a listed line, `bytes[start, end)` (UTF-8 already), as it is to the chunk (see `settle`)
	 * and returns true — or adds nothing and returns false when it holds a character the terminal
	 * escapes (`escapedIn`). Copied and looked at in one pass, byte by byte: a second pass for the
	 * check, or a view of the line for `set`, cost more than the copy, once per line of a full listing.
	 */
	putLine(bytes: Uint8Array, start: number, end: number): boolean {
		this.room(end - start);
		const buffer = this.buffer;
		let at = this.size;
		for (let i = start; i < end; i++) {
			const b = bytes[i]!;
			buffer[at++] = b;
			const kind = ESCAPE_CLASS[b]!;
			if (kind !== 0 && escapedAt(bytes, i, end, kind)) return false;
		}
		this.size = at;
		return true;
	}

	/**
	 * Adds a listed line, `bytes[start, end)`, known to hold no character the terminal escapes
	 * (`noteMayEscape`): a native copy of a long line, where `putLine` looks at each byte. `bytes`
	 * is best a plain Uint8Array: a Buffer's `subarray` makes a Buffer, twice the cost per line.
	 */
	copyLine(bytes: Uint8Array, start: number, end: number): void {
		this.room(end - start);
		const buffer = this.buffer;
		let at = this.size;
		// A short line is copied in the loop: a native copy's call costs more than a few bytes' copy.
		if (end - start > SHORT_LINE) {
			buffer.set(bytes.subarray(start, end), at);
			at += end - start;
		} else for (let i = start; i < end; i++) buffer[at++] = bytes[i]!;
		this.size = at;
	}

	/** Adds `bytes` as they are (a listing already made, see RawLines.listed). */
	putBytes(bytes: Uint8Array): void {
		this.room(bytes.length);
		this.buffer.set(bytes, this.size);
		this.size += bytes.length;
	}

	/**
	 * Adds a listed line's head, `\n  <line>: ` (a match) or `\n  <line>- ` (context), as ASCII
	 * bytes: a string made and encoded for it was a tenth of a full text listing's time.
	 */
	putLineHead(line: number, match: boolean): void {
		this.room(24);
		const buffer = this.buffer;
		let at = this.size;
		buffer[at++] = 0x0a;
		buffer[at++] = 0x20;
		buffer[at++] = 0x20;
		let digits = 1;
		for (let n = line; n >= 10; n = Math.floor(n / 10)) digits++;
		for (let i = digits - 1, n = line; i >= 0; i--, n = Math.floor(n / 10)) buffer[at + i] = 0x30 + (n % 10);
		at += digits;
		buffer[at++] = match ? 0x3a : 0x2d;
		buffer[at++] = 0x20;
		this.size = at;
	}

	/** Writes the chunk (and waits for its reader) once it is full; looks at the garbage bound every CHECK_BYTES on the way. */
	async settle(): Promise<void> {
		if (this.size >= CHUNK_BYTES) await this.flush();
		else if (this.size >= this.nextCheck) {
			this.nextCheck = this.size + CHECK_BYTES;
			this.bound.check();
		}
	}

	/** Grows the buffer to take `bytes` more. */
	private room(bytes: number): void {
		const most = this.size + bytes;
		if (most <= this.buffer.length) return;
		const grown = Buffer.allocUnsafe(Math.max(most, 2 * this.buffer.length));
		this.buffer.copy(grown, 0, 0, this.size);
		this.buffer = grown;
	}

	/** Writes what is gathered (a new buffer takes the next parts: the reader may still hold this one). */
	async flush(): Promise<void> {
		if (this.size === 0) return;
		const chunk = this.buffer.subarray(0, this.size);
		this.buffer = Buffer.allocUnsafe(CHUNK_BYTES + CHUNK_SLACK);
		this.size = 0;
		this.nextCheck = CHECK_BYTES;
		if (this.io.write) await this.io.write(chunk);
		else this.io.stdout(chunk.toString('utf8').replace(/\n$/, ''));
		this.bound.check();
	}
}

/**
 * `value` as `JSON.stringify(value, null, 2)` writes it two levels deep (a result in the document's
 * `results`): written inside two arrays and cut out, so no second pass re-indents its lines.
 */
function nestedJson(value: unknown): string {
	// '[\n  [\n' before it, '\n  ]\n]' after it.
	return JSON.stringify([[value]], null, 2).slice(6, -6);
}

/** The opening of the `--json` document, up to its `results` array: the fields known before the scan. */
function jsonHead(head: object): string {
	return `${JSON.stringify(head, null, 2).replace(/\n}$/, '')},\n  "results": [`;
}

/**
 * The close of the `--json` document after its results: the fields known once the scan is done,
 * with the settings notes runCli adds to every `--json` answer's limitations.
 */
function jsonTail(result: QueryResult<unknown>, any: boolean, io: CommandIO): string {
	const extra = (io.settingsLimitations?.() ?? []).filter((line) => !result.limitations.includes(line));
	const tail = {
		matched: result.matched,
		skipped: result.skipped,
		limitations: [...result.limitations, ...extra],
		...(result.suggestions ? { suggestions: result.suggestions } : {}),
		...(result.more === true ? { more: true } : {}),
	};
	return `${any ? '\n  ]' : ']'},${JSON.stringify(tail, null, 2).slice(1)}\n`;
}

/**
 * One answer written as it is found: the head (`--json`: the fields known before the scan), each
 * note in result order, then the close — text ends with the count line (the whole answer puts it
 * first); `--json` is the same document as the whole answer with `matched`, `skipped` and
 * `limitations` after `results`.
 */
export class AnswerStream {
	private readonly json: boolean;
	private readonly out: ChunkWriter;
	private written = 0;

	constructor(
		private readonly args: ParsedArgs,
		private readonly io: CommandIO,
		bound?: GarbageBound,
	) {
		this.json = boolFlag(args, 'json');
		this.out = new ChunkWriter(io, bound);
	}

	/** The head of the answer, before the first note. */
	async begin(head: object): Promise<void> {
		if (this.json) await this.out.add(jsonHead(head));
	}

	/** One note: `json()` its result in the document (asked only with `--json`), `text()` its lines in the listing. */
	async note(json: () => unknown, text: () => string[]): Promise<void> {
		const first = this.written++ === 0;
		if (this.json) await this.out.add(`${first ? '\n' : ',\n'}${nestedJson(await json())}`);
		else await this.out.add(`${first ? '' : '\n'}${displayLines(text())}\n`);
	}

	/**
	 * One note of a text listing whose lines are still the note's bytes (RawLines): the same bytes
	 * as `note` writes for it — `renderNote`'s lines escaped by `displayLines` — with each line's
	 * bytes copied into the chunk, never decoded and encoded again. A line holding a character
	 * the terminal escapes is decoded and escaped instead.
	 */
	async noteRaw(path: string, title: string, raw: RawLines): Promise<void> {
		const out = this.out;
		out.put(`${this.written++ === 0 ? '' : '\n'}${escapeControls(path)}\n  ${escapeControls(title)}`);
		const { note, listed } = raw;
		const { bytes } = note;
		// Listed by the WebAssembly scan and clean (most notes): its listing copied whole.
		if (listed !== undefined && !noteMayEscape(bytes, listed.from, listed.to)) {
			out.putBytes(listed.bytes);
			out.put('\n');
			await out.settle();
			return;
		}
		const { lines } = raw;
		// Lines that hold no escaped character (most notes') are copied without a look at each byte: from
		// the first line's start (lines begin with a line, never with a -1) to the last line's end.
		const clean = lines.length === 0 || !noteMayEscape(bytes, lines[2] ?? 0, lines.at(-1) ?? bytes.length);
		const view = clean ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) : bytes;
		for (let k = 0; k < lines.length; k++) {
			if (lines[k] === -1) {
				out.put('\n  --');
				continue;
			}
			out.putLineHead(lines[k]!, lines[k + 1] === 1);
			const from = lines[k + 2]!;
			const to = lines[k + 3]!;
			if (clean) out.copyLine(view, from, to);
			else if (!out.putLine(bytes, from, to)) out.put(escapeControls(note.text(from, to)));
			k += 3;
		}
		out.put('\n');
		await out.settle();
	}

	/** The close, once the scan is done (the count line says when fewer notes were written than matched); resolves with the exit code. */
	async end(result: QueryResult<NoteResult>): Promise<number> {
		const verbose = boolFlag(this.args, 'verbose');
		const any = this.written > 0;
		await this.out.add(
			this.json
				? jsonTail(result, any, this.io)
				: `${any ? '\n' : ''}${escapeTerminal(renderSummary(result, { verbose, more: MORE }, this.written))}\n`,
		);
		await this.out.flush();
		return any ? EXIT.results : EXIT.nothingMatched;
	}
}

/** `vault-query grep` with a high `--limit`: each matching note is written as it is found, in result order (see AnswerStream). */
export async function streamGrep(
	args: ParsedArgs,
	io: CommandIO,
	engine: VaultEngine,
	query: GrepQuery,
	bound?: GarbageBound,
): Promise<number> {
	const answer = new AnswerStream(args, io, bound);
	const result = await engine.grepStream(query, {
		begin: (head) => answer.begin(head),
		note: (brief, full) => answer.note(full, () => renderNote(brief)),
		// A text listing takes the lines of a note matched on its bytes as bytes.
		...(boolFlag(args, 'json') ? {} : { noteRaw: (path, title, raw) => answer.noteRaw(path, title, raw) }),
	});
	if (result.status === 'failed') return emitAnswer(args, io, 'grep', result, () => '', false);
	return answer.end(result);
}
