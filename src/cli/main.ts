import { writeStderr, writeStdout, writeStdoutPart } from './process-output';
import { runCli } from './run';

/** Runs the command line in this process, writing to the real stdout and stderr (where a long read draws its progress line); resolves with the exit code. */
export function runHere(argv: string[]): Promise<number> {
	return runCli(argv, {
		stdout: writeStdout,
		write: writeStdoutPart,
		stderr: writeStderr,
		cwd: process.cwd(),
		progress: process.stderr,
		ownProcess: true,
	});
}
