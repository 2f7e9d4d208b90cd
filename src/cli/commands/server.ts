import { VaultError } from '../../node/vault-source';
import { boolFlag, numberFlag, positionals, UsageError } from '../args';
import { CommandFailure, EXIT, type Command, type CommandIO } from '../command';
import { exchange } from '../server/client';
import { runningServerPid, signalServer } from '../server/pid-file';
import { SERVER_STAMP, socketPathFor, type ServerReply, type ServerStatus } from '../server/protocol';
import { serverLogPath } from '../server/spawn';
import { vaultKeyOf } from '../vault';
import { exposeCollection } from '../../warm/collect';

/** The reply of the vault's server to a control request, or null when none answers. */
async function ask(vaultRealPath: string, control: 'status' | 'stop'): Promise<ServerReply | null> {
	const socket = socketPathFor(vaultRealPath);
	return socket === null ? null : (await exchange(socket, { stamp: SERVER_STAMP, control }, 5000)).reply;
}

/** The running server's status, or null when none answers for the vault at `vaultRealPath`. */
export async function serverStatus(vaultRealPath: string): Promise<ServerStatus | null> {
	const reply = await ask(vaultRealPath, 'status');
	return reply !== null && 'status' in reply ? reply.status : null;
}

/** How a stop went: the server was asked over its socket, or signalled (it could not answer), or none runs. */
export type Stopped = { how: 'asked' } | { how: 'signalled'; pid: number } | { how: 'none' };

/**
 * Asks the vault's server to stop. One that cannot answer its socket — still starting, or inside
 * a long synchronous read — gets SIGTERM through its pid file (pid-file.ts) instead.
 */
export async function stopServer(vaultRealPath: string): Promise<Stopped> {
	const reply = await ask(vaultRealPath, 'stop');
	if (reply !== null && ('stopping' in reply || 'declined' in reply)) return { how: 'asked' };
	const pid = signalServer(vaultRealPath);
	return pid === null ? { how: 'none' } : { how: 'signalled', pid };
}

/** One line on a running server, for `server --status` and `index --status`. */
export function describeServer(status: ServerStatus): string {
	return `background server pid ${status.pid}${status.ready ? (status.handsOver ? ' (indexing from scratch; hands over to a new server once saved)' : '') : ' (starting)'}, up since ${status.startedAt}: ${status.calls} calls, ${status.refreshes} refreshes, ${(status.rssBytes / 1e6).toFixed(0)} MB, trigram index ${status.trigrams}; stops after ${status.idleExitMinutes} min without a call`;
}

/** `--status` and `--stop`: talk to the running server. */
async function control(vault: string, stop: boolean, json: boolean, io: CommandIO): Promise<number> {
	if (stop) {
		const stopped = await stopServer(vault);
		const was = stopped.how !== 'none';
		if (json)
			io.stdout(
				JSON.stringify(
					{
						status: 'success',
						vault,
						stopped: was,
						...(stopped.how === 'signalled' ? { signalled: stopped.pid } : {}),
					},
					null,
					2,
				),
			);
		else if (stopped.how === 'signalled')
			io.stdout(
				`Stopped the background server of ${vault}: it did not answer (starting, or busy reading the vault), so pid ${stopped.pid} was sent SIGTERM.`,
			);
		else io.stdout(was ? `Stopped the background server of ${vault}.` : `No background server runs for ${vault}.`);
		return was ? EXIT.results : EXIT.nothingMatched;
	}
	const status = await serverStatus(vault);
	// A live server that does not answer (frozen, or inside a long read) is not "none": say so, with its pid.
	const silent = status === null ? runningServerPid(vault) : null;
	const where = `\n  socket: ${socketPathFor(vault)}\n  log:    ${serverLogPath(vault)}`;
	if (json)
		io.stdout(
			JSON.stringify(
				{
					status: 'success',
					vault,
					server: status,
					...(silent !== null ? { not_answering: { pid: silent } } : {}),
					socket: socketPathFor(vault),
					log: serverLogPath(vault),
				},
				null,
				2,
			),
		);
	else
		io.stdout(
			status
				? `${describeServer(status)}${where}`
				: silent !== null
					? `Background server pid ${silent} runs for ${vault} but is not answering (busy or frozen); calls answer on their own meanwhile (server --stop ends it).${where}`
					: `No background server runs for ${vault}; the next query starts one.`,
		);
	return status ? EXIT.results : EXIT.nothingMatched;
}

/** `vault-query server [--status | --stop]`: the vault's background server, which keeps the engine warm for CLI calls. */
export const serverCommand: Command = {
	name: 'server',
	summary:
		'the background server that keeps the vault warm for CLI calls (started by the first query); --status, --stop',
	usage: '[--status | --stop] [--idle-minutes N]',
	examples: [
		'vault-query server --status',
		'vault-query server --stop',
		'vault-query server --idle-minutes 60   # serve in the foreground, logging to stderr',
	],
	flags: {
		status: { kind: 'boolean', help: 'say whether a server runs for the vault, since when, and what it holds' },
		stop: {
			kind: 'boolean',
			help: "stop the vault's server (the next query starts a new one unless VAULT_QUERY_SERVER=off)",
		},
		'idle-minutes': {
			kind: 'number',
			value: 'N',
			range: [1, 10_080],
			help: 'stop after N minutes without a call (default 10)',
		},
	},
	run: async (args, io) => {
		positionals(args, []);
		if (boolFlag(args, 'status') && boolFlag(args, 'stop'))
			throw new UsageError('give --status or --stop, not both');
		if (boolFlag(args, 'no-cache'))
			throw new UsageError(
				'--no-cache reads the vault in the call itself; the server always keeps the index snapshot',
			);
		const vault = (await vaultKeyOf(args, io)).key;
		if (boolFlag(args, 'status') || boolFlag(args, 'stop'))
			return control(vault, boolFlag(args, 'stop'), boolFlag(args, 'json'), io);
		const { runCliServer, DEFAULT_IDLE_MINUTES } = await import('../server/serve');
		// The collections between phases and between calls (serve.ts, collectWhenQuiet), as the MCP server makes them.
		if (io.ownProcess === true) exposeCollection();
		if (io.runCli === undefined)
			throw new CommandFailure('the server runs under the CLI (runCli), which hands it the commands');
		try {
			return await runCliServer({
				vaultPath: vault,
				args,
				io,
				runCli: io.runCli,
				idleMinutes: numberFlag(args, 'idle-minutes') ?? DEFAULT_IDLE_MINUTES,
			});
		} catch (error) {
			if (error instanceof VaultError) throw new CommandFailure(error.message);
			throw error;
		}
	},
};
