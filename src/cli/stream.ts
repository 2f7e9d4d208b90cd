/**
 * Answers written as they are found: a grep with a high `--limit` hands each matching note to
 * the output as the scan reaches it, in chunks, so neither this process nor the background server
 * ever holds the whole answer (at 50k notes a full answer is tens of MB of text and JSON).
 */
import type { QueryResult } from '../core/contract';
import { displayLines } from '../core/display';
import type { VaultEngine } from '../core/engine/engine';
import type { AnswerHead } from '../core/query/grep-stream';
import { renderNote, renderSummary } from '../core/query/render-text';
import type { GrepQuery } from '../core/query/types';
import { boolFlag, type ParsedArgs } from './args';
import { emitAnswer, EXIT, MORE, type CommandIO } from './command';

/** Answers that may hold more results than this are streamed; smaller ones are built whole (their count first). */
export const STREAM_ABOVE = 500;

/** A streamed answer reaches the writer in chunks of about this many characters (one note's result more at most). */
export const CHUNK_CHARS = 64 * 1024;

/** Gathers a streamed answer's parts and hands them to `io.write` a chunk at a time, waiting for the reader between chunks. */
export class ChunkWriter {
	private parts: string[] = [];
	private size = 0;

	constructor(private readonly io: CommandIO) {}

	/** Adds `text`; a full chunk is written (and its reader waited for) before this resolves. */
	async add(text: string): Promise<void> {
		this.parts.push(text);
		this.size += text.length;
		if (this.size >= CHUNK_CHARS) await this.flush();
	}

	/** Writes what is gathered. */
	async flush(): Promise<void> {
		if (this.size === 0) return;
		const chunk = this.parts.join('');
		this.parts = [];
		this.size = 0;
		if (this.io.write) await this.io.write(chunk);
		else this.io.stdout(chunk.replace(/\n$/, ''));
	}
}

/** `value` as `JSON.stringify(value, null, 2)` writes it nested `depth` levels deep. */
function nestedJson(value: unknown, depth: number): string {
	const pad = '  '.repeat(depth);
	return pad + JSON.stringify(value, null, 2).replaceAll('\n', `\n${pad}`);
}

/** The opening of the `--json` document, up to its `results` array: the fields known before the scan. */
function jsonHead(head: AnswerHead): string {
	return `${JSON.stringify(head, null, 2).replace(/\n}$/, '')},\n  "results": [`;
}

/**
 * The close of the `--json` document after its results: the fields known once the scan is done,
 * with the settings notes runCli adds to every `--json` answer's limitations.
 */
function jsonTail(result: QueryResult, any: boolean, io: CommandIO): string {
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
 * `vault-query grep` with a high `--limit`: each matching note is written as it is found, in
 * result order. Text ends with the count line (the whole answer puts it first); `--json` is the
 * same document as the whole answer with `matched`, `skipped` and `limitations` after `results`.
 */
export async function streamGrep(
	args: ParsedArgs,
	io: CommandIO,
	engine: VaultEngine,
	query: GrepQuery,
): Promise<number> {
	const json = boolFlag(args, 'json');
	const out = new ChunkWriter(io);
	let written = 0;
	const result = await engine.grepStream(query, {
		begin: (head) => (json ? out.add(jsonHead(head)) : undefined),
		note: async (brief, full) => {
			const first = written++ === 0;
			if (json) await out.add(`${first ? '\n' : ',\n'}${nestedJson(await full(), 2)}`);
			else await out.add(`${first ? '' : '\n'}${displayLines(renderNote(brief))}\n`);
		},
	});
	if (result.status === 'failed') return emitAnswer(args, io, 'grep', result, () => '', false);
	const verbose = boolFlag(args, 'verbose');
	await out.add(
		json
			? jsonTail(result, written > 0, io)
			: `${written > 0 ? '\n' : ''}${renderSummary(result, { verbose, more: MORE })}\n`,
	);
	await out.flush();
	return written > 0 ? EXIT.results : EXIT.nothingMatched;
}
