import { runCli } from './run';

/** The first error writing stdout, if any: a full disk or a closed file is exit 2, never a stack trace. */
let outputError: (Error & { code?: string }) | undefined;

/** Note a failed write; a reader that closed the pipe (`vault-query … | head`) chose to stop, which is not an error. */
function onOutputError(error: Error & { code?: string }): void {
	if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
	outputError ??= error;
}

process.stdout.on('error', onOutputError);

// The bin entry: wire the real process to runCli, which tests drive directly.
const code = await runCli(process.argv.slice(2), {
	stdout: (text) => {
		if (outputError === undefined) process.stdout.write(`${text}\n`, (error) => error && onOutputError(error));
	},
	stderr: (text) => process.stderr.write(`${text}\n`),
	cwd: process.cwd(),
});
// Wait until stdout has taken everything (or failed), so a late write error still decides the exit code.
await new Promise<void>((done) => process.stdout.write('', () => done()));
if (outputError !== undefined) {
	process.stderr.write(`vault-query: could not write the output: ${outputError.message}\n`);
	process.exitCode = 2;
} else {
	process.exitCode = code;
}
