/**
 * The real process's stdout and stderr for the CLI: a reader that closed the pipe
 * (`vault-query … | head`) ends the process quietly; any other write error (a full disk) makes the
 * exit code 2 with one line, never a stack trace.
 */

/** The first error writing stdout, if any. */
let outputError: (Error & { code?: string }) | undefined;

/** Note a failed write; a closed pipe means the reader chose to stop, which is not an error. */
function onOutputError(error: Error & { code?: string }): void {
	if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
	outputError ??= error;
}

process.stdout.on('error', onOutputError);

/** Writes `text` and a newline to stdout (nothing more once a write failed). */
export function writeStdout(text: string): void {
	if (outputError === undefined) process.stdout.write(`${text}\n`, (error) => error && onOutputError(error));
}

/**
 * Writes `text` (or bytes) as is to stdout (a streamed answer's chunk); resolves once it is written
 * (bytes lent by the server's socket are read again after that) and the pipe can take more.
 */
export function writeStdoutPart(text: string | Uint8Array): Promise<void> {
	if (outputError !== undefined) return Promise.resolve();
	return new Promise((done) => {
		const more = process.stdout.write(text, (error) => {
			if (error) onOutputError(error);
			if (more || error) done();
		});
		if (!more) process.stdout.once('drain', done);
	});
}

/** The first error writing stderr, if any: a warning or error the user never saw makes the exit code 2. */
let errorOutputError: Error | undefined;

process.stderr.on('error', (error: Error) => {
	errorOutputError ??= error;
});

/** Writes `text` and a newline to stderr. */
export function writeStderr(text: string): void {
	process.stderr.write(`${text}\n`, (error) => {
		if (error) errorOutputError ??= error;
	});
}

/** Waits until stdout has taken everything (or failed), so a late write error still decides it; returns the exit code to use. */
export async function settleOutput(code: number): Promise<number> {
	await new Promise<void>((done) => process.stdout.write('', () => done()));
	await new Promise<void>((done) => process.stderr.write('', () => done()));
	if (errorOutputError !== undefined) return 2; // nowhere left to say why
	if (outputError === undefined) return code;
	process.stderr.write(`vault-query: could not write the output: ${outputError.message}\n`);
	return 2;
}
