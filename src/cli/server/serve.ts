/**
 * The vault's background server: one warm vault (src/warm) that CLI calls connect to over a Unix
 * socket beside the snapshot, so a call pays for Node's start and its answer, not for reading the
 * snapshot and stat'ing every note. Every call is answered from a state with every change the
 * watcher has seen applied (`WarmVault.fresh`). The server stops after a stretch with no call, when
 * a call comes from another build, when the plugin's settings change, when its watcher fails
 * (it could no longer promise a current answer), and on SIGTERM or SIGINT.
 */
import { realpathSync, statSync } from 'node:fs';
import { chmod, unlink } from 'node:fs/promises';
import { makeCacheFolder, safeCacheDir } from '../../node/snapshot/cache-dir';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { clearInterval, clearTimeout, setInterval, setTimeout } from 'node:timers';
import type { EngineConfig, VaultEngine } from '../../core/engine/engine';
import type { NoteSource } from '../../core/port';
import { DEFAULT_CONFIG_DIR, type OpenVaultOptions } from '../../node/vault-source';
import { fullCollection } from '../../node/full-collection';
import { startWarmVault, type WarmVault } from '../../warm/host';
import type { VaultState } from '../../warm/session';
import type { ParsedArgs } from '../args';
import { CommandFailure, type CommandIO, type WarmLoan } from '../command';
import { engineConfigFrom, openOptionsFrom, TOOL_STAMP } from '../vault';
import { warmOpener } from '../../warm/opener';
import { exchange } from './client';
import { forgetServerPid, writeServerPid } from './pid-file';
import { SPAWNED_ENV, startServer } from './spawn';
import {
	liveness,
	SERVED_COMMANDS,
	SERVER_STAMP,
	socketPathFor,
	type CallRequest,
	type ControlRequest,
	type OutBytes,
	type ServerReply,
	type ServerStatus,
} from './protocol';

/** Default minutes without a call before the server stops. */
export const DEFAULT_IDLE_MINUTES = 10;

/** What `runCliServer` needs. */
export interface CliServerOptions {
	vaultPath: string;
	/** The `server` command's arguments (walk bounds, `--config-dir`, `--profile`): the settings calls are matched against. */
	args: ParsedArgs;
	io: CommandIO;
	idleMinutes: number;
	/** Runs one call's command line (the CLI's runCli, handed in by the `server` command so this module need not import the commands). */
	runCli: (argv: string[], io: CommandIO) => Promise<number>;
}

/** Listens on `path`; a stale socket file (nobody answers) is replaced, a live server is left alone (resolves with its pid). */
async function listenOn(
	server: Server,
	path: string,
): Promise<{ listening: true } | { listening: false; holder: number | null }> {
	for (let attempt = 0; attempt < 2; attempt++) {
		const error = await new Promise<(Error & { code?: string }) | null>((done) => {
			server.once('error', done);
			server.listen(path, () => {
				server.off('error', done);
				done(null);
			});
		});
		if (error === null) return { listening: true };
		if (error.code !== 'EADDRINUSE') throw error;
		const probe = await exchange(path, { stamp: SERVER_STAMP, control: 'status' }, 2000);
		if (probe.reply !== null)
			return { listening: false, holder: 'status' in probe.reply ? probe.reply.status.pid : null };
		await unlink(path).catch(() => undefined);
	}
	return { listening: false, holder: null };
}

/** Reads one request line from `socket` (the caller ends its side after writing it). */
function readRequest(socket: Socket): Promise<unknown> {
	return new Promise((done) => {
		const chunks: Buffer[] = [];
		socket.on('data', (chunk: Buffer) => chunks.push(chunk));
		socket.on('error', () => done(null));
		socket.on('end', () => {
			try {
				const request: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
				// The acknowledgement: a space before the reply (JSON allows it), so the caller knows
				// at once that a live server has the request and waits for the answer, not for a frozen one.
				if (!socket.destroyed) socket.write(' ');
				done(request);
			} catch {
				done(null);
			}
		});
	});
}

/** How many bytes of a streamed answer may wait in a call's socket before the server waits for it to drain. */
const QUEUED_BYTES = 1024 * 1024;

/**
 * Sends one chunk of a streamed answer ahead of the reply; resolves once the socket can take more
 * (or the caller has gone), so the server holds one chunk per call, not the whole answer.
 */
function sendChunk(socket: Socket, part: string | Uint8Array): Promise<void> {
	if (socket.destroyed) return Promise.resolve();
	// The chunk's bytes as they are (no JSON escaping here, no parsing in the call), after a line with their count.
	const body = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
	socket.cork();
	socket.write(`${JSON.stringify({ bytes: body.length } satisfies OutBytes)}\n`);
	socket.write(body);
	socket.uncork();
	// A few chunks may wait in the socket while the next is made (bounded: the call reads as it writes).
	if (socket.writableLength <= QUEUED_BYTES) return Promise.resolve();
	return new Promise((done) => {
		const go = (): void => {
			socket.off('drain', go);
			socket.off('close', go);
			done();
		};
		socket.on('drain', go);
		socket.on('close', go);
	});
}

/** The folder's device and inode, or null when it is gone: a vault moved away and another put in its place is not the one watched. */
function folderIdentity(path: string): string | null {
	try {
		const s = statSync(path);
		return `${s.dev}:${s.ino}`;
	} catch {
		return null;
	}
}

/** The real path of `path`, or the path itself when it cannot be resolved. */
function realOf(path: string): string {
	try {
		return realpathSync.native(path);
	} catch {
		return path;
	}
}

/** One server's state and rules (see the module comment); `run()` serves until it stops. */
class CliServer {
	private readonly vault: string;
	private readonly socketPath: string;
	private readonly bounds: OpenVaultOptions;
	private readonly boundsKey: string;
	private readonly startedAt = new Date();
	private readonly identity: string | null;
	private readonly server: Server;
	private config: EngineConfig = {};
	private configKey = '';
	private warm: WarmVault | null = null;
	/** How far the first read of the vault is (for `--status` and the calls that wait for it). */
	private building: { read: number; total: number } | null = { read: 0, total: 0 };
	private calls = 0;
	private handsOver = false;
	private stopping = false;
	private idle: ReturnType<typeof setTimeout> | null = null;
	private collect: ReturnType<typeof setTimeout> | null = null;
	private stopped: () => void = () => undefined;
	private readonly done = new Promise<void>((resolve) => (this.stopped = resolve));

	constructor(private readonly options: CliServerOptions) {
		this.vault = realOf(options.vaultPath);
		const socketPath = socketPathFor(this.vault);
		const refused = safeCacheDir().refused;
		if (socketPath === null)
			throw new CommandFailure(
				refused !== null
					? refused
					: process.platform === 'win32'
						? 'the background server is not available on Windows; every call reads the index snapshot itself'
						: 'the cache folder path is too long for a socket; set VAULT_QUERY_CACHE_DIR to a shorter one',
			);
		this.socketPath = socketPath;
		this.bounds = openOptionsFrom(options.args);
		this.boundsKey = JSON.stringify(this.bounds);
		this.identity = folderIdentity(this.vault);
		// why: the caller ends its side after the request; the reply still has to go back on ours.
		this.server = createServer({ allowHalfOpen: true });
	}

	private log(line: string): void {
		this.options.io.stderr(`vault-query server: ${new Date().toISOString()} ${line}`);
	}

	/** Serves until stopped; resolves with the exit code. */
	async run(): Promise<number> {
		const { io, args } = this.options;
		makeCacheFolder(dirname(this.socketPath)); // private: the socket answers with note text, only this user may reach it
		this.config = await engineConfigFrom(args, io);
		this.configKey = JSON.stringify(this.config);
		this.server.on('connection', (socket) => void this.serve(socket));
		const listened = await listenOn(this.server, this.socketPath);
		if (!listened.listening) {
			this.log('another server already serves this vault');
			// The call that started this one wrote this pid over the serving one's.
			if (listened.holder !== null) writeServerPid(this.vault, listened.holder);
			else forgetServerPid(this.vault, process.pid);
			return 0;
		}
		writeServerPid(this.vault, process.pid);
		await chmod(this.socketPath, 0o600).catch(() => undefined);
		process.once('SIGTERM', () => this.stop('SIGTERM'));
		process.once('SIGINT', () => this.stop('SIGINT'));
		this.rearm();
		try {
			this.warm = await startWarmVault({
				vaultPath: this.vault,
				configDir: this.bounds.configDir ?? DEFAULT_CONFIG_DIR,
				// The progress callback also makes the read yield now and then, so calls that wait are told how far it is.
				open: warmOpener(
					this.vault,
					this.bounds,
					false,
					TOOL_STAMP,
					(line) => this.log(line),
					(read, total) => (this.building = { read, total }),
				),
				config: this.config,
				log: (line) => this.log(line),
			});
		} catch (error) {
			this.stop(`the vault could not be opened: ${error instanceof Error ? error.message : String(error)}`);
			await unlink(this.socketPath).catch(() => undefined);
			forgetServerPid(this.vault, process.pid);
			throw error;
		}
		this.building = null;
		// A server that indexed the vault from scratch holds every note's parsed metadata and the
		// indexes as built (1.3 GB at 50k); one started on the saved files reads them lazily (~0.3 GB).
		this.handsOver = this.warm.session.peek().snapshot?.state === 'built' && process.env[SPAWNED_ENV] === '1';
		void this.warm.loadIndexes().then(() => {
			if (this.handsOver && !this.stopping) {
				this.stop(
					'indexed from scratch and saved: a new server takes over on the saved index, which holds far less in memory',
				);
				startServer(this.vault);
			}
		});
		this.log(
			`ready: ${this.vault} (${this.warm.session.peek().source.listNotes().length} notes) on ${this.socketPath}`,
		);
		await this.done;
		// No unlink here: closing the listener removed the socket file, and a successor may own the name by now.
		forgetServerPid(this.vault, process.pid);
		await this.warm.close();
		return 0;
	}

	/** Stops listening and ends `run()`; calls in flight finish. */
	private stop(why: string): void {
		if (this.stopping) return;
		this.stopping = true;
		this.log(`stopping (${why})`);
		if (this.idle) clearTimeout(this.idle);
		this.server.close();
		this.stopped();
	}

	/** Restarts the idle countdown. */
	private rearm(): void {
		if (this.idle) clearTimeout(this.idle);
		this.idle = setTimeout(
			() => this.stop(`no call for ${this.options.idleMinutes} min`),
			this.options.idleMinutes * 60_000,
		);
	}

	/** Reads one request from `socket` and writes the reply (after the streamed answer's chunks, if any). */
	private async serve(socket: Socket): Promise<void> {
		const request = await readRequest(socket);
		// The heartbeat: while the answer is worked out, a space each beat tells the caller this server is
		// alive, however long the call takes (client.ts gives up on a server silent for ten beats).
		const beat = setInterval(() => {
			if (!socket.destroyed) socket.write(' ');
		}, liveness().beatMs);
		let reply: ServerReply;
		try {
			reply = await this.answer(request, socket);
		} catch (error) {
			reply = { declined: `the server failed: ${error instanceof Error ? error.message : String(error)}` };
			this.log(`call failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
		} finally {
			clearInterval(beat);
		}
		socket.end(`${JSON.stringify(reply)}\n`);
	}

	/** The reply to one request. */
	private async answer(request: unknown, socket: Socket): Promise<ServerReply> {
		const asked = request as Partial<CallRequest & ControlRequest> | null;
		if (asked === null || typeof asked !== 'object') return { declined: 'an unreadable request' };
		// Status and stop are answered for any build: after an upgrade, `server --stop` must still reach the old server.
		if (asked.control === 'status') return { status: this.status() };
		if (asked.control === 'stop') {
			this.stop('asked to stop');
			return { stopping: true };
		}
		// Only the commands a call sends here: never `index --clear`, `mcp` or `server`, whoever writes to the socket.
		if (!Array.isArray(asked.argv) || !SERVED_COMMANDS.includes(String(asked.argv[0])))
			return { declined: 'not a command this server answers' };
		if (asked.stamp !== SERVER_STAMP) {
			this.stop('a call from another build'); // closing the listener removes the socket: the caller may start a new server
			return { declined: 'this server is another build', stopped: true };
		}
		if (!Array.isArray(asked.argv) || typeof asked.cwd !== 'string') return { declined: 'an unreadable request' };
		const warm = this.warm;
		if (this.stopping) return { declined: 'the server is stopping' };
		// Still reading the vault: the call waits and asks again rather than reading the vault a second time.
		if (warm === null) return { declined: 'the server is reading the vault', starting: true };
		if (folderIdentity(this.vault) !== this.identity) {
			this.stop('the vault folder was moved, removed or replaced');
			return { declined: 'the vault folder is not the one this server watches' };
		}
		if (warm.watcher.error !== null) {
			this.stop(`the file watcher failed (${warm.watcher.error})`);
			return { declined: 'the server cannot watch the vault' };
		}
		return this.call(warm, asked.argv.map(String), asked.cwd, socket);
	}

	/** Runs one command line on the current state, with every change the watcher saw applied. */
	private async call(warm: WarmVault, argv: string[], cwd: string, socket: Socket): Promise<ServerReply> {
		this.calls++;
		this.rearm();
		const stdout: string[] = [];
		const stderr: string[] = [];
		const settingsDiffer = { seen: false };
		const code = await warm.session.use((state) =>
			this.options.runCli(argv, {
				cwd,
				stdout: (text) => stdout.push(text),
				stderr: (text) => stderr.push(text),
				write: (part) => sendChunk(socket, part),
				warm: this.loanOf(state, settingsDiffer),
			}),
		);
		// A call with other settings got an engine of its own; when the plugin's settings changed, the next call starts a server with them.
		if (settingsDiffer.seen && !(await this.settingsUnchanged())) this.stop('the plugin settings changed');
		this.collectWhenQuiet();
		return { stdout, stderr, code };
	}

	/**
	 * A full collection once calls have paused for a second (the `server` command defines one, see
	 * warm/collect.ts): each refresh leaves the previous read's columns behind, and V8 would rather
	 * grow the heap than collect them — at 50k the server grew by ~20 MB per refresh without it.
	 */
	private collectWhenQuiet(): void {
		const gc = fullCollection();
		if (gc === undefined) return;
		if (this.collect) clearTimeout(this.collect);
		this.collect = setTimeout(gc, 1000);
		this.collect.unref();
	}

	/** The loan of one state to one call: the warm source and engine when the call's bounds and settings are the server's. */
	private loanOf(state: VaultState, settingsDiffer: { seen: boolean }): WarmLoan {
		return {
			source: (path: string, callBounds: OpenVaultOptions): NoteSource | null =>
				realOf(path) === this.vault && JSON.stringify(callBounds) === this.boundsKey ? state.source : null,
			engine: (source: NoteSource, callConfig: EngineConfig): VaultEngine | null => {
				if (source !== state.source) return null;
				if (JSON.stringify(callConfig) === this.configKey) return state.engine;
				settingsDiffer.seen = true;
				return null;
			},
			line: `vault-query: answered by the background server (pid ${process.pid}, up ${Math.round((Date.now() - this.startedAt.getTime()) / 1000)} s, call ${this.calls}), which watches the vault for changes`,
		};
	}

	/** Whether the plugin's settings (data.json, read as at the start) still make the server's configuration. */
	private async settingsUnchanged(): Promise<boolean> {
		return (
			JSON.stringify(
				await engineConfigFrom(this.options.args, { ...this.options.io, stderr: () => undefined }),
			) === this.configKey
		);
	}

	/** What `server --status` shows. */
	private status(): ServerStatus {
		return {
			pid: process.pid,
			vault: this.vault,
			ready: this.warm !== null && !this.stopping,
			handsOver: this.handsOver,
			startedAt: this.startedAt.toISOString(),
			calls: this.calls,
			refreshes: this.warm ? this.warm.session.refreshInfo().builds - 1 : 0,
			rssBytes: process.memoryUsage.rss(),
			idleExitMinutes: this.options.idleMinutes,
			trigrams: this.warm?.trigrams.status.state ?? 'waiting',
			building: this.building,
		};
	}
}

/** Serves the vault until idle or stopped; resolves with the exit code. */
export function runCliServer(options: CliServerOptions): Promise<number> {
	return new CliServer(options).run();
}
