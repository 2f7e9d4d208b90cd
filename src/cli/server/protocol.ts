/**
 * The wire between a CLI call and the vault's background server: the call sends one JSON line,
 * the server answers with one JSON line — after the chunks of a streamed answer, each a line
 * `{"bytes":N}` and N bytes of the answer's UTF-8. Kept small and free of the engine, because the CLI's
 * entry loads it before it knows whether it needs anything else.
 */
import { join } from 'node:path';
import { buildStamp } from '../../node/snapshot/build-stamp';
import { cacheDir, safeCacheFolder, snapshotFileName } from '../../node/snapshot/cache-dir';

/** The environment variable that turns the background server off (`off`): every call reads the snapshot itself. */
export const SERVER_ENV = 'VAULT_QUERY_SERVER';

/** This build's identity: a call is answered only by a server of the very same build. */
export const SERVER_STAMP = buildStamp(VAULT_QUERY_VERSION);

/**
 * The commands a server answers: every command that reads the vault and answers once. `mcp` is a
 * server itself; `index` and `server` manage the snapshot and the server, so they run in the call.
 */
export const SERVED_COMMANDS: readonly string[] = [
	'tag',
	'prop',
	'backlinks',
	'links',
	'grep',
	'search',
	'lookup',
	'filter',
	'graph',
	'text-search',
	'pack',
	'note',
	'status',
	'config',
	'schema',
	'base',
];

/** A call for the server: run `argv` as if typed in `cwd`. */
export interface CallRequest {
	stamp: string;
	argv: string[];
	cwd: string;
}

/** A request to the server itself: stop, or say how it is. */
export interface ControlRequest {
	stamp: string;
	control: 'stop' | 'status';
}

/** What the server is and has done, for `vault-query server --status` and `index --status`. */
export interface ServerStatus {
	pid: number;
	vault: string;
	/** Whether the vault is open and calls are answered (until then they run on their own). */
	ready: boolean;
	/** This server indexed the vault from scratch and hands over to a successor once its indexes are saved. */
	handsOver: boolean;
	startedAt: string;
	calls: number;
	refreshes: number;
	rssBytes: number;
	idleExitMinutes: number;
	trigrams: string;
	/** While the vault is first read: notes read of how many (calls wait for it; see first-call.ts); null once ready. */
	building?: { read: number; total: number } | null;
}

/**
 * The server's answer: the call's output and exit code; `declined` when the call must run on its
 * own (other walk bounds; `starting`: the server is still reading the vault, so the call waits for
 * it rather than reading it too; `stopped`: another build, and this server has stopped, so the call
 * may start a new one); `stopping` after a stop.
 */
export type ServerReply =
	| { stdout: string[]; stderr: string[]; code: number }
	| { declined: string; stopped?: boolean; starting?: boolean }
	| { status: ServerStatus }
	| { stopping: true };

/** One chunk of a streamed answer's stdout (cli/stream.ts), sent as it is written, before the reply. */
export interface OutChunk {
	out: string;
}

/**
 * The line before one chunk of a streamed answer sent as bytes: its `bytes` bytes of UTF-8 follow
 * the line as they are, so the call writes them out without parsing or decoding them.
 */
export interface OutBytes {
	bytes: number;
}

/** The socket a vault's server listens on, beside its snapshot; null where there is none (Windows, a path too long for a socket, a cache folder the safety rule refuses). */
export function socketPathFor(
	vaultRealPath: string,
	env: Record<string, string | undefined> = process.env,
	platform: string = process.platform,
): string | null {
	if (platform === 'win32') return null; // why: a named pipe is readable by other local users by default; the cache folder's 0700 guards a socket
	const folder = safeCacheFolder(cacheDir(env, platform));
	if (folder.refused !== null) return null;
	const path = join(folder.dir, snapshotFileName(vaultRealPath).replace(/\.vqs$/, '.sock'));
	// Unix socket paths are limited to 104 (macOS) or 108 (Linux) bytes.
	return Buffer.byteLength(path) < 104 ? path : null;
}

/**
 * How long a call waits for the server's first byte (its acknowledgement, sent as soon as it has
 * read the request) before answering on its own: a live server sends it within milliseconds (5 s
 * leaves room for a loaded machine's stalls, so a busy CI run does not build the vault twice); a
 * frozen one, or one inside a long synchronous read, never does.
 */
export const ACK_TIMEOUT_MS = 5000;

/**
 * How long a call waits with nothing from the server, once the server has acknowledged it, before
 * it answers on its own: a server answering a call sends a heartbeat every tenth of this (a space,
 * which JSON allows before a line), however long the call takes — a refresh after many edits, a
 * full grep — so only a frozen server, or one stuck this long in synchronous work, is given up on.
 */
export const SILENCE_MS = 10_000;

/** Test-only: a shorter silence deadline in ms (the acknowledgement's is half of it, the heartbeat a tenth), so a test of a silent server need not wait seconds. */
export const SILENCE_ENV = 'VAULT_QUERY_TEST_SILENCE_MS';

/** The deadlines a call gives a server (see ACK_TIMEOUT_MS, SILENCE_MS) and the heartbeat period that keeps a live server inside them. */
export function liveness(env: Record<string, string | undefined> = process.env): {
	ackMs: number;
	silenceMs: number;
	beatMs: number;
} {
	const given = env[SILENCE_ENV];
	if (given === undefined || !/^[0-9]{2,6}$/.test(given))
		return { ackMs: ACK_TIMEOUT_MS, silenceMs: SILENCE_MS, beatMs: SILENCE_MS / 10 };
	const silenceMs = Number(given);
	return { ackMs: Math.round(silenceMs / 2), silenceMs, beatMs: Math.max(1, Math.round(silenceMs / 10)) };
}

/** Whether the environment turned the server off. */
export function serverOff(env: Record<string, string | undefined> = process.env): boolean {
	return env[SERVER_ENV] === 'off' || env[SERVER_ENV] === '0';
}
