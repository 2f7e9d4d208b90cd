/**
 * The call's side of the background server: find the vault's server and let it answer. Anything
 * that is not a clean answer — no server, a refused connection, another build, a server that
 * stops mid-call — means the call runs on its own, with nothing printed yet: the server sends the
 * whole output in one reply, so a half answer is never shown.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { SERVED_COMMANDS, SERVER_STAMP, serverOff, socketPathFor, type ServerReply } from './protocol';

/** How asking went: `answered` with the output, or why the call runs on its own (`absent`: no server is running, so one may be started). */
export type Asked =
	| { kind: 'answered'; stdout: string[]; stderr: string[]; code: number }
	| { kind: 'absent'; vault: string }
	| { kind: 'skipped' };

/**
 * The vault folder a command line names (`--vault P` or `--vault=P` before `--`, else `cwd`), or
 * null when the line does not go to a server (`--no-cache`, `--no-server`, or `--help`: asking
 * how a command works must not start a server for whatever folder one stands in). A hint only: the
 * server parses the line again, and declines it if it names another vault.
 */
export function servedVaultOf(argv: readonly string[], cwd: string): string | null {
	let vault = '.';
	for (let i = 1; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--') break;
		if (arg === '--no-cache' || arg === '--no-server' || arg === '--help' || arg === '-h') return null;
		if (arg === '--vault' && i + 1 < argv.length) vault = argv[++i];
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

/** Sends one request line and resolves with the one reply line, or null when the socket failed or closed first. */
export function exchange(
	socketPath: string,
	request: object,
	timeoutMs = 0,
): Promise<{ reply: ServerReply | null; error: string | null }> {
	const foreign = foreignSocket(socketPath);
	if (foreign !== null) return Promise.resolve({ reply: null, error: foreign });
	return new Promise((done) => {
		const socket = connect(socketPath);
		const chunks: Buffer[] = [];
		let settled = false;
		const finish = (reply: ServerReply | null, error: string | null): void => {
			if (settled) return;
			settled = true;
			socket.destroy();
			done({ reply, error });
		};
		if (timeoutMs > 0) socket.setTimeout(timeoutMs, () => finish(null, 'ETIMEDOUT'));
		socket.on('connect', () => socket.end(`${JSON.stringify(request)}\n`));
		socket.on('data', (chunk: Buffer) => chunks.push(chunk));
		socket.on('error', (error: Error & { code?: string }) => finish(null, error.code ?? error.message));
		socket.on('close', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			if (!text.endsWith('\n')) return finish(null, 'closed before answering');
			try {
				finish(JSON.parse(text) as ServerReply, null);
			} catch {
				finish(null, 'an unreadable reply');
			}
		});
	});
}

/**
 * How long a call waits for the server's answer before answering on its own. Far above any
 * answer (a first search at 50k notes takes seconds), but a server that hangs must not hang its callers.
 */
export const CALL_TIMEOUT_MS = 300_000;

/** Let the vault's server answer `argv` when there is one (see the module comment). */
export async function askServer(
	argv: readonly string[],
	cwd: string,
	env: Record<string, string | undefined> = process.env,
	timeoutMs = CALL_TIMEOUT_MS,
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
	const { reply, error } = await exchange(socketPath, { stamp: SERVER_STAMP, argv, cwd }, timeoutMs);
	if (reply !== null && 'code' in reply)
		return { kind: 'answered', stdout: reply.stdout, stderr: reply.stderr, code: reply.code };
	// No socket, one nobody listens on, or a server of another build that just stopped: none runs now.
	const gone =
		error === 'ENOENT' ||
		error === 'ECONNREFUSED' ||
		(reply !== null && 'declined' in reply && reply.stopped === true);
	return gone ? { kind: 'absent', vault } : { kind: 'skipped' };
}
