/**
 * `vault-query mcp`: open the vault once, watch it, and serve MCP over stdio until stdin closes
 * or a SIGTERM/SIGINT arrives. stdout carries only the protocol; every log line goes to stderr.
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createServer } from './server';
import { VaultSession } from './session';
import { watchVault } from './watcher';

/** What the stdio server needs. */
export interface McpRunOptions {
	vaultPath: string;
	maxBytes: number;
	version: string;
	log: (line: string) => void;
}

/** Serves until the client goes away; resolves with the exit code (0 on a clean shutdown). */
export async function runMcpServer(options: McpRunOptions): Promise<number> {
	const started = performance.now();
	const session = await VaultSession.open(options.vaultPath, options.log);
	const watcher = watchVault(session.vaultPath, (paths) => {
		session.changed(paths.length);
		void session.refresh();
	}, { configDir: session.peek().source.configDir });
	session.watcher = { running: watcher.error === null, error: watcher.error };
	if (watcher.error !== null) options.log(`file watcher unavailable (${watcher.error}); answers will not follow edits until restart`);
	const handle = serveStdio(() => createServer(session, options), { onerror: (error) => options.log(`protocol error: ${error.message}`) });
	options.log(`ready: ${session.vaultPath} in ${Math.round(performance.now() - started)} ms (MCP on stdio)`);
	return new Promise<number>((resolve) => {
		let closing = false;
		const shutdown = (why: string): void => {
			if (closing) return;
			closing = true;
			options.log(`shutting down (${why})`);
			watcher.close();
			void handle.close().finally(() => resolve(0));
		};
		process.stdin.once('end', () => shutdown('stdin closed'));
		process.stdin.once('close', () => shutdown('stdin closed'));
		process.once('SIGTERM', () => shutdown('SIGTERM'));
		process.once('SIGINT', () => shutdown('SIGINT'));
	});
}
