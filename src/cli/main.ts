import { writeStderr, writeStdout, writeStdoutPart } from './process-output';
import { runCli } from './run';

/** Runs the command line in this process, writing to the real stdout and stderr; resolves with the exit code. `serverSaves`: see CommandIO. */
export function runHere(argv: string[], serverSaves = false): Promise<number> {
	return runCli(argv, {
		stdout: writeStdout,
		write: writeStdoutPart,
		stderr: writeStderr,
		cwd: process.cwd(),
		serverSaves,
	});
}
