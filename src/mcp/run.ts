/**
 * `vault-query mcp`: serve MCP over stdio at once, open the vault once meanwhile and watch it, until stdin closes
 * or a SIGTERM/SIGINT arrives. stdout carries only the protocol; every log line goes to stderr.
 */
import { clearTimeout, setImmediate, setTimeout } from 'node:timers';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { EngineConfig } from '../core/engine/engine';
import { LineTransport } from './line-transport';
import { createServer } from './server';
import { introduceVault } from './introduction';
import { StartingVault } from './starting';
import { DEFAULT_READER_SETTINGS } from '../core/reader/index';
import { startWarmVault } from '../warm/host';
import type { VaultOpener } from '../warm/session';
import { existsSync } from 'node:fs';

/**
 * Test-only: names a file; the server's first read of the vault waits until that file exists, so a
 * test sees the start's `opening` status for sure, then creates the file to let the read go on.
 * Unset (always, outside tests), nothing waits.
 */
export const HOLD_OPEN_ENV = 'VAULT_QUERY_TEST_HOLD_OPEN';

/** `open`, its first read held until the file HOLD_OPEN_ENV names exists (see there); `open` itself when the variable is unset. */
export function heldOpener(open: VaultOpener, env: Record<string, string | undefined> = process.env): VaultOpener {
	const file = env[HOLD_OPEN_ENV];
	if (file === undefined || file === '') return open;
	return async (first, changed) => {
		while (first && !existsSync(file)) await new Promise((done) => setTimeout(done, 20));
		return open(first, changed);
	};
}

/** What the stdio server needs. */
export interface McpRunOptions {
	/** Reads the vault (through the index snapshot unless --no-cache). */
	open: VaultOpener;
	/** The vault folder and Obsidian's config folder in it (watched from before the first read). */
	vaultPath: string;
	configDir: string;
	maxBytes: number;
	version: string;
	log: (line: string) => void;
	/** The engine configuration (links key…); defaults otherwise. */
	config?: EngineConfig;
	/** Hands over the sink of the opener's progress (notes read of how many), for `status` and progress notifications. */
	onReading?: (sink: (read: number, total: number) => void) => void;
}

/**
 * The stdio transport, calling `first` once (on the next turn) after its first message is written, or when `answered()` is called,
 * and `ended` when the connection closes (stdin's end, a write error), so the process exits whatever else still runs.
 */
class FirstAnswer extends LineTransport {
	private first: (() => void) | null;
	private readonly ended: () => void;

	constructor(first: () => void, ended: () => void) {
		super();
		this.first = first;
		this.ended = ended;
	}

	/** Closes the connection and ends the server. */
	override async close(): Promise<void> {
		await super.close();
		this.ended();
	}

	/** Writes `message`, then runs the pending callback once. */
	override async send(message: JSONRPCMessage): Promise<void> {
		await super.send(message);
		this.answered();
	}

	/** Sets the callback to run after the next message written (or `answered()`). */
	rearm(next: () => void): void {
		this.first = next;
	}

	/** Runs the pending callback on the next turn of the event loop (once). */
	answered(): void {
		const first = this.first;
		this.first = null;
		if (first !== null) setImmediate(first);
	}
}

/** Serves until the client goes away; resolves with the exit code (0 on a clean shutdown). */
export async function runMcpServer(options: McpRunOptions): Promise<number> {
	const started = performance.now();
	// Signals and stdin EOF are wired first: a SIGTERM during startup must still end cleanly.
	let ended: (why: string) => void = () => undefined;
	const stop = new Promise<string>((resolve) => {
		ended = resolve;
		process.stdin.once('end', () => resolve('stdin closed'));
		process.stdin.once('close', () => resolve('stdin closed'));
		process.once('SIGTERM', () => resolve('SIGTERM'));
		process.once('SIGINT', () => resolve('SIGINT'));
	});
	// The protocol is served at once; the vault opens meanwhile and each call waits for what it needs (starting.ts).
	const vault = new StartingVault(
		options.vaultPath,
		startWarmVault({
			vaultPath: options.vaultPath,
			configDir: options.configDir,
			open: heldOpener(options.open),
			config: options.config ?? {},
			log: options.log,
		}),
	);
	options.onReading?.((read, total) => vault.reading(read, total));
	// The saved indexes load once the vault is open and the first answer after it is written (or
	// a second after the open without one): a long synchronous decode no answer should wait for.
	let answered = false;
	let idle: ReturnType<typeof setTimeout> | undefined;
	const wire = new FirstAnswer(
		() => {
			answered = true;
		},
		() => ended('connection closed'),
	);
	void vault.open().then(
		(warm) => {
			options.log(
				`ready: ${warm.session.vaultPath} in ${Math.round(performance.now() - started)} ms (the vault is open)`,
			);
			const load = (): void => {
				clearTimeout(idle);
				void warm.loadIndexes();
			};
			if (answered) load();
			else {
				wire.rearm(load);
				idle = setTimeout(() => wire.answered(), 1000);
			}
		},
		(error: unknown) =>
			options.log(`the vault could not be opened: ${error instanceof Error ? error.message : String(error)}`),
	);
	const schemaPath = options.config?.reader?.schemaPath ?? DEFAULT_READER_SETTINGS.schemaPath;
	const handle = serveStdio(
		async () =>
			createServer(
				vault,
				options,
				await introduceVault({
					vaultPath: options.vaultPath,
					configDir: options.configDir,
					schemaPath,
					session: vault.ready(),
				}),
			),
		{ transport: wire, onerror: (error) => options.log(`protocol error: ${error.message}`) },
	);
	options.log(`serving MCP on stdio (${options.vaultPath}) in ${Math.round(performance.now() - started)} ms`);
	const why = await stop;
	options.log(`shutting down (${why})`);
	clearTimeout(idle);
	// An index part being written is let finish (bounded), so the next start need not build it again.
	const warm = await vault.open().catch(() => null);
	await warm?.close();
	await handle.close();
	// Nothing more is read: a stdin still open (a SIGTERM while the client keeps its end) must not keep the process alive.
	process.stdin.destroy();
	return 0;
}
