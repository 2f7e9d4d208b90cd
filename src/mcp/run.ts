/**
 * `vault-query mcp`: open the vault once, watch it, and serve MCP over stdio until stdin closes
 * or a SIGTERM/SIGINT arrives. stdout carries only the protocol; every log line goes to stderr.
 */
import { clearTimeout, setImmediate, setTimeout } from 'node:timers';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { EngineConfig } from '../core/engine/engine';
import { LineTransport } from './line-transport';
import { createServer } from './server';
import { startWarmVault } from '../warm/host';
import type { VaultOpener } from '../warm/session';

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
	const warm = await Promise.race([
		startWarmVault({
			vaultPath: options.vaultPath,
			configDir: options.configDir,
			open: options.open,
			config: options.config ?? {},
			log: options.log,
		}),
		stop,
	]);
	if (typeof warm === 'string') {
		options.log(`stopped before the vault was open (${warm})`);
		return 0;
	}
	const { session } = warm;
	// The saved indexes load once the first answer (the handshake) is written, or after a second
	// without a client.
	const wire = new FirstAnswer(
		() => {
			clearTimeout(idle);
			void warm.loadIndexes();
		},
		() => ended('connection closed'),
	);
	const idle = setTimeout(() => wire.answered(), 1000);
	const handle = serveStdio(() => createServer(session, options), {
		transport: wire,
		onerror: (error) => options.log(`protocol error: ${error.message}`),
	});
	options.log(`ready: ${session.vaultPath} in ${Math.round(performance.now() - started)} ms (MCP on stdio)`);
	const why = await stop;
	options.log(`shutting down (${why})`);
	// An index part being written is let finish (bounded), so the next start need not build it again.
	await warm.close();
	await handle.close();
	return 0;
}
