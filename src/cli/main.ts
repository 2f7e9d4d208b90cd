import { runCli } from './run';

// `vault-query … | head` closes the pipe early; that is the reader's choice, not an error.
process.stdout.on('error', (error: Error & { code?: string }) => {
	if (error.code === 'EPIPE') process.exit(0);
	throw error;
});

// The bin entry: wire the real process to runCli, which tests drive directly.
const code = await runCli(process.argv.slice(2), {
	stdout: (text) => process.stdout.write(`${text}\n`),
	stderr: (text) => process.stderr.write(`${text}\n`),
	cwd: process.cwd(),
}).catch((error: unknown) => {
	process.stderr.write(`vault-query: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
	return 2;
});
process.exitCode = code;
