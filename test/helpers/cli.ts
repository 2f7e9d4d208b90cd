import { runCli } from '../../src/cli/run';

/** What a CLI run printed and returned. */
export interface CliRun {
	code: number;
	stdout: string;
	stderr: string;
}

/** Run the CLI in-process (same code as the bin) and capture its output. */
export async function cli(args: string[], cwd = process.cwd()): Promise<CliRun> {
	const out: string[] = [];
	const err: string[] = [];
	const code = await runCli(args, { stdout: (t) => out.push(t), stderr: (t) => err.push(t), cwd });
	return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

/** Run a CLI command with `--json` and parse what it printed. */
export async function cliJson<T = Record<string, unknown>>(
	args: string[],
): Promise<{ code: number; json: T; stderr: string }> {
	const run = await cli([...args, '--json']);
	return { code: run.code, json: JSON.parse(run.stdout) as T, stderr: run.stderr };
}
