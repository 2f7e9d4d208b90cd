/**
 * Answers written as they are found: a grep or text-search with a high `--limit` hands each matching note to
 * the output as the scan reaches it, in chunks, so neither this process nor the background server
 * ever holds the whole answer (at 50k notes a full answer is tens of MB of text and JSON).
 */
import type { NoteResult, QueryResult } from '../core/contract';
import { displayLines, escapeTerminal } from '../core/display';
import type { VaultEngine } from '../core/engine/engine';
import { renderNote, renderSummary } from '../core/query/render-text';
import type { GrepQuery } from '../core/query/types';
import { boolFlag, type ParsedArgs } from './args';
import { emitAnswer, EXIT, MORE, type CommandIO } from './command';

/** Answers that may hold more results than this are streamed; smaller ones are built whole (their count first). */
export const STREAM_ABOVE = 500;

/** A streamed answer reaches the writer in chunks of about this many bytes (one note's result more at most). */
export const CHUNK_BYTES = 64 * 1024;

/**
 * Gathers a streamed answer's parts, encoded as they come into the chunk's bytes, and hands
 * them to `io.write` a chunk at a time, waiting for the reader between chunks. The parts are
 * what is printed, terminal escapes already spelled out where text needs them (AnswerStream).
 */
export class ChunkWriter {
	private buffer = Buffer.allocUnsafe(2 * CHUNK_BYTES);
	private size = 0;

	constructor(private readonly io: CommandIO) {}

	/** Adds `text`; a full chunk is written (and its reader waited for) before this resolves. */
	async add(text: string): Promise<void> {
		// UTF-8 takes at most three bytes per UTF-16 code unit.
		const most = this.size + 3 * text.length;
		if (most > this.buffer.length) {
			const grown = Buffer.allocUnsafe(Math.max(most, 2 * this.buffer.length));
			this.buffer.copy(grown, 0, 0, this.size);
			this.buffer = grown;
		}
		this.size += this.buffer.write(text, this.size, 'utf8');
		if (this.size >= CHUNK_BYTES) await this.flush();
	}

	/** Writes what is gathered (a new buffer takes the next parts: the reader may still hold this one). */
	async flush(): Promise<void> {
		if (this.size === 0) return;
		const chunk = this.buffer.subarray(0, this.size);
		this.buffer = Buffer.allocUnsafe(2 * CHUNK_BYTES);
		this.size = 0;
		if (this.io.write) await this.io.write(chunk);
		else this.io.stdout(chunk.toString('utf8').replace(/\n$/, ''));
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
	) {
		this.json = boolFlag(args, 'json');
		this.out = new ChunkWriter(io);
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
): Promise<number> {
	const answer = new AnswerStream(args, io);
	const result = await engine.grepStream(query, {
		begin: (head) => answer.begin(head),
		note: (brief, full) => answer.note(full, () => renderNote(brief)),
	});
	if (result.status === 'failed') return emitAnswer(args, io, 'grep', result, () => '', false);
	return answer.end(result);
}
