/**
 * The MCP stdio transport: one JSON-RPC message per line on stdin, answers on stdout. It replaces
 * the SDK's `StdioServerTransport` (same interface) because that one closes itself — and stops
 * reading stdin, so the process never sees stdin end — on a message over its 10 MiB buffer, drops
 * malformed lines without a reply, and copies its whole buffer on every chunk (quadratic in a long
 * line). Here a line is gathered from its chunks once (linear), an oversized line is skipped to its
 * end and answered with -32600, a malformed one with -32700 (-32600 when it is JSON but not
 * JSON-RPC), with the request's `id` when one can be read, and reading goes on.
 */
import type { Readable, Writable } from 'node:stream';
import { setImmediate } from 'node:timers';
import { parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/server';

/** Largest message read, in bytes (the SDK's own limit): a longer line is answered with an error and skipped. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** JSON-RPC error codes for lines that are not a message. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INVALID_PARAMS = -32602;

/** How much of a line's start and end is kept to read its `id` from once the line is known to be too long. */
const EDGE_BYTES = 4096;

/** An `"id": 7` or `"id": "a"` member (a key inside a JSON string is escaped, `\"id\"`, so it does not match). */
const ID_MEMBER = /"id"\s*:\s*(-?\d{1,15}(?![\d.eE])|"(?:[^"\\]|\\.){0,256}")/g;

/**
 * The `id` of a request read from the start of its text, or else from its end (clients write it first or
 * last), when there is one.
 */
export function readableId(head: string, tail = ''): string | number | undefined {
	const first = [...head.matchAll(ID_MEMBER)][0];
	const last = [...tail.matchAll(ID_MEMBER)].at(-1);
	const match = first ?? last;
	if (match === undefined) return undefined;
	if (match[1]!.startsWith('"')) {
		try {
			return JSON.parse(match[1]!) as string;
		} catch {
			return undefined;
		}
	}
	return Number(match[1]);
}

/** A JSON-RPC error reply, with the id when one was read (the SDK's schema takes no `id: null`). */
function errorReply(id: string | number | undefined, code: number, message: string): JSONRPCMessage {
	return { jsonrpc: '2.0', ...(id === undefined ? {} : { id }), error: { code, message } };
}

/** Line-delimited JSON-RPC over a readable and a writable stream (stdin and stdout by default). */
export class LineTransport implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: (message: JSONRPCMessage) => void;

	private readonly stdin: Readable;
	private readonly stdout: Writable;
	private readonly maxBytes: number;
	/** The pieces of the line being read, their total size, and whether it is past the limit (then only its head and tail are kept). */
	private pieces: Buffer[] = [];
	private tail = Buffer.alloc(0);
	private size = 0;
	private oversized = false;
	private closed = false;

	constructor(stdin: Readable = process.stdin, stdout: Writable = process.stdout, maxBytes = MAX_MESSAGE_BYTES) {
		this.stdin = stdin;
		this.stdout = stdout;
		this.maxBytes = maxBytes;
	}

	/** Starts reading stdin; stdin's end closes the transport. */
	async start(): Promise<void> {
		this.stdin.on('data', this.onData);
		this.stdin.on('error', this.onReadError);
		this.stdin.on('end', this.onEnd);
		this.stdin.on('close', this.onEnd);
		this.stdout.on('error', this.onWriteError);
		if (this.stdin.readableEnded || this.stdin.destroyed) setImmediate(this.onEnd);
	}

	/** Takes a chunk: each newline in it completes a line; the rest waits for the next chunk. */
	private readonly onData = (chunk: Buffer): void => {
		let from = 0;
		for (;;) {
			const newline = chunk.indexOf(10, from);
			if (newline === -1) {
				this.keep(chunk.subarray(from));
				return;
			}
			this.keep(chunk.subarray(from, newline));
			this.endLine();
			from = newline + 1;
		}
	};

	/** Adds a piece to the current line; past the limit only the line's head and tail are kept (to read its id). */
	private keep(piece: Buffer): void {
		if (piece.length === 0) return;
		this.size += piece.length;
		if (this.oversized) {
			this.tail = Buffer.from(Buffer.concat([this.tail, piece.subarray(-EDGE_BYTES)]).subarray(-EDGE_BYTES));
			return;
		}
		this.pieces.push(piece);
		if (this.size > this.maxBytes) {
			this.oversized = true;
			const all = Buffer.concat(this.pieces);
			this.pieces = [Buffer.from(all.subarray(0, EDGE_BYTES))];
			this.tail = Buffer.from(all.subarray(-EDGE_BYTES));
		}
	}

	/** A whole line was read: hand its message on, or answer why it is none. */
	private endLine(): void {
		const bytes = Buffer.concat(this.pieces);
		const size = this.size;
		const oversized = this.oversized;
		const tail = this.tail.toString('utf8');
		this.tail = Buffer.alloc(0);
		this.pieces = [];
		this.size = 0;
		this.oversized = false;
		const text = bytes.toString('utf8').replace(/\r$/, '');
		if (oversized) {
			this.reject(
				errorReply(
					readableId(text, tail),
					INVALID_REQUEST,
					`Message of ${size} bytes is over the ${this.maxBytes}-byte limit; it was not read`,
				),
			);
			return;
		}
		if (text.trim() === '') return;
		let value: unknown;
		try {
			value = JSON.parse(text);
		} catch (error) {
			const why = error instanceof Error ? error.message.slice(0, 200) : 'not JSON';
			this.reject(
				errorReply(
					readableId(text.slice(0, EDGE_BYTES), text.slice(-EDGE_BYTES)),
					PARSE_ERROR,
					`Parse error: ${why}`,
				),
			);
			return;
		}
		let message: JSONRPCMessage;
		try {
			message = parseJSONRPCMessage(value);
		} catch {
			const id = (value as { id?: unknown } | null)?.id;
			const known = typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : undefined;
			this.reject(errorReply(known, INVALID_REQUEST, 'Invalid request: not a JSON-RPC 2.0 message'));
			return;
		}
		const argumentsOf = (message as { method?: unknown; params?: { arguments?: unknown } }).params?.arguments;
		if (
			(message as { method?: unknown }).method === 'tools/call' &&
			typeof argumentsOf === 'object' &&
			argumentsOf !== null &&
			Object.prototype.hasOwnProperty.call(argumentsOf, '__proto__')
		) {
			// The SDK's schemas let an own `__proto__` key through unseen; every tool's parameters are strict.
			this.reject(
				errorReply(
					(message as { id?: string | number }).id,
					INVALID_PARAMS,
					'Invalid arguments: unknown parameter "__proto__"',
				),
			);
			return;
		}
		this.onmessage?.(message);
	}

	/** Answers a line that is no message, and reports it to the log. */
	private reject(reply: JSONRPCMessage): void {
		const { error } = reply as { error: { message: string } };
		this.onerror?.(new Error(error.message));
		this.send(reply).catch((e: unknown) => this.onerror?.(e instanceof Error ? e : new Error(String(e))));
	}

	private readonly onReadError = (error: Error): void => {
		this.onerror?.(error);
	};

	private readonly onWriteError = (error: Error): void => {
		if (this.closed) return;
		this.onerror?.(error);
		void this.close();
	};

	private readonly onEnd = (): void => {
		void this.close();
	};

	/** Stops reading and tells the server the connection ended. */
	async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		this.stdin.off('data', this.onData);
		this.stdin.off('error', this.onReadError);
		this.stdin.off('end', this.onEnd);
		this.stdin.off('close', this.onEnd);
		// A flowing stdin keeps the process alive: paused, a server stopped by a signal can exit.
		this.stdin.pause();
		this.pieces = [];
		this.onclose?.();
	}

	/** Writes one message as a line, waiting for the stream to drain when it is full. */
	send(message: JSONRPCMessage): Promise<void> {
		if (this.closed) return Promise.reject(new Error('The MCP connection is closed'));
		return new Promise((resolve, reject) => {
			const fail = (error: Error): void => {
				this.stdout.off('drain', done);
				reject(error);
			};
			const done = (): void => {
				this.stdout.off('error', fail);
				resolve();
			};
			this.stdout.once('error', fail);
			if (this.stdout.write(`${JSON.stringify(message)}\n`)) done();
			else this.stdout.once('drain', done);
		});
	}
}
