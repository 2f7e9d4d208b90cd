/**
 * The `vault-query` executable. A query is first offered to the vault's background server, which
 * answers from a warm engine (cli/server). When none runs yet, the call starts one and waits for
 * its answer instead of reading the vault too (cli/server/first-call.ts): the vault is read from
 * scratch once. A command line the CLI refuses (checked only then, on this cold path) starts no
 * server. Only when no server can answer is the rest of the CLI loaded and the call run here.
 * This file and what it imports are kept small: they are compiled on every call.
 */
import { askServer } from './server/client';
import { settleOutput, writeStderr, writeStdout, writeStdoutPart } from './process-output';

const argv = process.argv.slice(2);
let asked = await askServer(argv, process.cwd(), process.env, undefined, writeStdoutPart);
// No server answers yet: a command line the CLI refuses (an unknown option, a bad value) starts none; runHere says why.
if ((asked.kind === 'absent' || asked.kind === 'starting') && (await import('./run')).refusedUsage(argv))
	asked = { kind: 'skipped' };
if (asked.kind === 'absent' || asked.kind === 'starting')
	asked = await (
		await import('./server/first-call')
	).waitForServer(argv, process.cwd(), asked, {
		onOut: writeStdoutPart,
	});
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
	code = await runHere(argv);
}
process.exitCode = await settleOutput(code);
