/**
 * The `vault-query` executable. A query is first offered to the vault's background server, which
 * answers from a warm engine (cli/server); only when none answers is the rest of the CLI loaded
 * and the call run here — after which a server is started for the next call. This file and what
 * it imports are kept small: they are compiled on every call.
 */
import { askServer } from './server/client';
import { settleOutput, writeStderr, writeStdout, writeStdoutPart } from './process-output';

const argv = process.argv.slice(2);
const asked = await askServer(argv, process.cwd(), process.env, undefined, writeStdoutPart);
let code: number;
if (asked.kind === 'answered') {
	for (const line of asked.stderr) writeStderr(line);
	for (const line of asked.stdout) writeStdout(line);
	code = asked.code;
} else if (asked.kind === 'broken') {
	writeStderr(
		`vault-query: the background server stopped in the middle of the answer (${asked.error}); run the command again`,
	);
	code = 2;
} else {
	const { runHere } = await import('./main');
	// A server starts after this call and saves the snapshot itself: the call need not pay for it.
	code = await runHere(argv, asked.kind === 'absent');
	// why: a call that could not search (exit 2: a bad flag, a missing folder) is no reason to start a server.
	if (asked.kind === 'absent' && code !== 2) (await import('./server/spawn')).startServer(asked.vault);
}
process.exitCode = await settleOutput(code);
