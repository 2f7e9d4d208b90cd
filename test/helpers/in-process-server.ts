/** A vault's background server run in the test's own process, for tests that talk to it through its socket. */
import { realpathSync } from 'node:fs';
import { runCli } from '../../src/cli/run';
import { exchange } from '../../src/cli/server/client';
import { SERVER_STAMP, socketPathFor } from '../../src/cli/server/protocol';
import { REPO } from './paths';
import { waitFor } from './wait';

/** A started server: its socket path, and `stop()`, which asks it to stop and waits until it has. */
export interface InProcessServer {
	socket: string;
	stop: () => Promise<void>;
}

/** Starts `vault-query server` on `vault` (cache folder `cache`) and resolves once its status says ready. */
export async function startInProcessServer(
	vault: string,
	cache: string,
	stderr: (text: string) => void = () => undefined,
): Promise<InProcessServer> {
	const stopped = runCli(['server', '--vault', vault, '--idle-minutes', '5'], {
		stdout: () => undefined,
		stderr,
		cwd: REPO,
	});
	const socket = socketPathFor(realpathSync.native(vault), { VAULT_QUERY_CACHE_DIR: cache })!;
	await waitFor(
		async () => {
			const { reply } = await exchange(socket, { stamp: SERVER_STAMP, control: 'status' }, 2000);
			return reply !== null && 'status' in reply && reply.status.ready;
		},
		{ what: 'the background server to come up', pollMs: 100 },
	);
	return {
		socket,
		stop: async () => {
			await exchange(socket, { stamp: SERVER_STAMP, control: 'stop' }, 2000);
			await stopped;
		},
	};
}
