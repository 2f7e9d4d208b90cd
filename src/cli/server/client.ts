/**
 * The call's side of the background server: find the vault's server and let it answer. Anything
 * that is not a clean answer — no server, a refused connection, another build, a server that
 * stops mid-call — means the call runs on its own, with nothing printed yet: the server sends the
 * whole output in one reply, so a half answer is never shown. The one exception is a streamed
 * answer (a grep with a high `--limit`, cli/stream.ts): its chunks are printed as they come, and
 * a server that stops after the first one leaves the call failed, not run twice.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { connect } from 'node:net';
import { clearTimeout, setImmediate, setTimeout } from 'node:timers';
import { resolve } from 'node:path';
import {
	liveness,
	SERVED_COMMANDS,
	SERVER_STAMP,
	serverOff,
	socketPathFor,
	type OutBytes,
	type OutChunk,
	type ServerReply,
} from './protocol';

/** How asking went: `answered` with the output, `starting` (the server is still reading the vault: wait for it), or why the call runs on its own (`absent`: no server is running, so one may be started). */
export type Asked =
	| { kind: 'answered'; stdout: string[]; stderr: string[]; code: number }
	| { kind: 'absent'; vault: string }
	/** The server wrote part of a streamed answer and stopped: the call cannot start over without printing it twice. */
	| { kind: 'broken'; error: string }
	| { kind: 'starting'; vault: string }
	/** `silent`: a live server took the connection but did not acknowledge the call in time (busy, or frozen). */
	| { kind: 'skipped'; silent?: true };

/**
 * The vault folder a command line names (`--vault P` or `--vault=P` before `--`, else `cwd`), or
 * null when the line does not go to a server (`--no-cache`, `--no-server`, or `--help`: asking
 * how a command works must not start a server for whatever folder one stands in). A hint only: the
 * server parses the line again, and declines it if it names another vault.
 */
export function servedVaultOf(argv: readonly string[], cwd: string): string | null {
	let vault = '.';
	for (let i = 1; i < argv.length; i++) {
		const arg = argv[i]!;
		if (arg === '--') break;
		if (arg === '--no-cache' || arg === '--no-server' || arg === '--help' || arg === '-h') return null;
		if (arg === '--vault' && i + 1 < argv.length) vault = argv[++i]!;
		else if (arg.startsWith('--vault=')) vault = arg.slice('--vault='.length);
	}
	return resolve(cwd, vault);
}

/**
 * Why the file at `socketPath` is not this user's server, or null (also when there is none yet): a
 * socket another user made would receive the call's arguments and answer with what it likes.
 */
export function foreignSocket(socketPath: string, uid: number | undefined = process.getuid?.()): string | null {
	try {
		const info = lstatSync(socketPath);
		if (!info.isSocket()) return 'not a socket';
		if (uid !== undefined && info.uid !== uid) return `a socket of another user (uid ${info.uid})`;
		return null;
	} catch {
		return null;
	}
}

/** The most a call reads from the server's socket at once. */
const READ_BYTES = 1024 * 1024;

/** The error of an exchange whose server accepted the connection but went silent: no acknowledgement within its deadline, or no byte for the silence deadline after it. */
export const NOT_ANSWERING = 'not answering';

/**
 * Sends one request line and resolves with the one reply line, or null when the socket failed or
 * closed first, or the server went silent (`not answering`): no byte within `ackMs`, or none for
 * `silenceMs` since the last one (0: no such deadline). The chunks of a streamed answer that come before the reply go to `onOut` (as bytes, unread) as they
 * arrive (the socket paused while it writes them, and the silence not counted meanwhile); `streamed` says whether any came.
 * The bytes are lent: a view of the one read buffer, valid until what `onOut` returns has resolved
 * (an `onOut` that keeps them copies them).
 */
export function exchange(
	socketPath: string,
	request: object,
	timeoutMs = 0,
	onOut?: (out: string | Uint8Array) => void | Promise<void>,
	ackMs = liveness().ackMs,
	silenceMs = liveness().silenceMs,
): Promise<{ reply: ServerReply | null; error: string | null; streamed?: boolean }> {
	const foreign = foreignSocket(socketPath);
	if (foreign !== null) return Promise.resolve({ reply: null, error: foreign });
	return new Promise((done) => {
		const readBuffer = Buffer.allocUnsafe(READ_BYTES);
		const socket = connect({
			path: socketPath,
			// One buffer for every read, up to READ_BYTES at a time: a streamed answer of 100 MB came in 64 KB reads, each a new buffer and a stream event.
			onread: { buffer: readBuffer, callback: (n) => received(readBuffer.subarray(0, n)) },
		});
		let pending: Buffer[] = [];
		let reply: ServerReply | null = null;
		let streamed = false;
		let writing: Promise<void> = Promise.resolve();
		let settled = false;
		let watchdog: ReturnType<typeof setTimeout> | undefined;
		/** Whether a byte came since the watchdog last fired, and whether the call is writing output (its own wait, not the server's). */
		let heard = false;
		let paused = false;
		const finish = (error: string | null): void => {
			if (settled) return;
			settled = true;
			clearTimeout(watchdog);
			socket.destroy();
			done({ reply: error === null ? reply : null, error, ...(streamed ? { streamed } : {}) });
		};
		/** Gives up on a server silent for `ms` (0: never), after one more turn of the event loop: bytes already waiting (this process was stalled itself) are read first. */
		const watch = (ms: number): void => {
			clearTimeout(watchdog);
			if (ms <= 0) return;
			watchdog = setTimeout(() => {
				heard = false;
				setImmediate(() => {
					if (!heard && !paused) finish(NOT_ANSWERING);
				});
			}, ms);
		};
		/** Bytes of the chunk being received still to come after its `{"bytes":N}` line. */
		let body = 0;
		/** One whole line: a chunk to write, else the reply; false when it cannot be read. */
		const line = async (text: string): Promise<boolean> => {
			let parsed: unknown;
			try {
				parsed = JSON.parse(text);
			} catch {
				return false;
			}
			const chunk = parsed as Partial<OutChunk> | null;
			if (chunk !== null && typeof chunk === 'object' && typeof chunk.out === 'string' && reply === null) {
				streamed = true;
				await onOut?.(chunk.out);
			} else reply = parsed as ServerReply;
			return true;
		};
		if (timeoutMs > 0) socket.setTimeout(timeoutMs, () => finish('ETIMEDOUT'));
		socket.on('connect', () => {
			socket.end(`${JSON.stringify(request)}\n`);
			watch(ackMs);
		});
		/** What one read brought, in the read buffer: the socket stays paused until every chunk's bytes in it are written (`onOut` lends them). */
		function received(data: Buffer): boolean {
			// The acknowledgement, a heartbeat (both spaces before a line) or part of a line: the server is alive.
			heard = true;
			watch(silenceMs);
			// Lines (the reply, a chunk's count of bytes) and the bytes of chunks, in order: bytes go out as they come.
			const parts: (string | Buffer)[] = [];
			let start = 0;
			while (start < data.length) {
				if (body > 0) {
					const end = Math.min(data.length, start + body);
					parts.push(data.subarray(start, end));
					body -= end - start;
					start = end;
					continue;
				}
				const end = data.indexOf(10, start);
				if (end === -1) break;
				const text = Buffer.concat([...pending, data.subarray(start, end)]).toString('utf8');
				pending = [];
				start = end + 1;
				const bytes = reply === null ? chunkBytes(text) : null;
				if (bytes === null) parts.push(text);
				else {
					streamed = true;
					body = bytes;
				}
			}
			if (start < data.length) pending.push(Buffer.from(data.subarray(start)));
			if (parts.length === 0) return true;
			socket.pause();
			paused = true;
			clearTimeout(watchdog);
			writing = writing.then(async () => {
				for (const part of parts) {
					if (typeof part !== 'string') await onOut?.(part);
					else if (!(await line(part))) return finish('an unreadable reply');
				}
				paused = false;
				watch(silenceMs);
				socket.resume();
			});
			return false;
		}
		socket.on('error', (error: Error & { code?: string }) => finish(error.code ?? error.message));
		socket.on(
			'close',
			() =>
				void writing.then(() =>
					finish(reply !== null && pending.length === 0 ? null : 'closed before answering'),
				),
		);
	});
}

/** The count of a `{"bytes":N}` line (heartbeat spaces before it allowed), or null for any other line. */
function chunkBytes(line: string): number | null {
	const text = line.trimStart();
	if (!text.startsWith('{"bytes":')) return null;
	try {
		const { bytes } = JSON.parse(text) as Partial<OutBytes>;
		return typeof bytes === 'number' && Number.isInteger(bytes) && bytes >= 0 ? bytes : null;
	} catch {
		return null;
	}
}

/**
 * How long a call's socket may stay idle before the call answers on its own: a backstop far above
 * the silence deadline, which a live server's heartbeat keeps the call inside however long it answers.
 */
export const CALL_TIMEOUT_MS = 300_000;

/** Let the vault's server answer `argv` when there is one (see the module comment); `onOut` as in `exchange` (its bytes lent). */
export async function askServer(
	argv: readonly string[],
	cwd: string,
	env: Record<string, string | undefined> = process.env,
	timeoutMs = CALL_TIMEOUT_MS,
	onOut?: (out: string | Uint8Array) => void | Promise<void>,
	ackMs = liveness(env).ackMs,
): Promise<Asked> {
	if (serverOff(env) || !SERVED_COMMANDS.includes(argv[0] ?? '')) return { kind: 'skipped' };
	const named = servedVaultOf(argv, cwd);
	if (named === null) return { kind: 'skipped' };
	let vault: string;
	try {
		vault = realpathSync.native(named);
	} catch {
		return { kind: 'skipped' }; // the call itself says what is wrong with the folder
	}
	const socketPath = socketPathFor(vault, env);
	if (socketPath === null) return { kind: 'skipped' };
	const { reply, error, streamed } = await exchange(
		socketPath,
		{ stamp: SERVER_STAMP, argv, cwd },
		timeoutMs,
		onOut,
		ackMs,
		liveness(env).silenceMs,
	);
	if (reply !== null && 'code' in reply)
		return { kind: 'answered', stdout: reply.stdout, stderr: reply.stderr, code: reply.code };
	if (streamed === true) return { kind: 'broken', error: error ?? 'no answer' };
	if (reply !== null && 'declined' in reply && reply.starting === true) return { kind: 'starting', vault };
	// No socket, one nobody listens on, or a server of another build that just stopped: none runs now.
	const gone =
		error === 'ENOENT' ||
		error === 'ECONNREFUSED' ||
		(reply !== null && 'declined' in reply && reply.stopped === true);
	if (gone) return { kind: 'absent', vault };
	// A reply that declines the call is final; silence may be a server busy in a long step (see first-call.ts).
	return error === NOT_ANSWERING ? { kind: 'skipped', silent: true } : { kind: 'skipped' };
}
