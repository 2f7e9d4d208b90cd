/**
 * A count of full reads of a vault, for tests that prove a vault is built once: when the
 * environment names a file, each process that reads a vault from scratch appends one line to it.
 * Nothing is written without the variable, and never inside the vault (the read-only rule).
 */
import { appendFileSync } from 'node:fs';
import { resolve, sep } from 'node:path';

/** The environment variable naming the file each full read of a vault appends a line to. */
export const BUILD_LOG_ENV = 'VAULT_QUERY_BUILD_LOG';

/** Appends `<pid> <vault> <notes>` to the build log when the environment names one outside the vault; best effort. */
export function recordBuild(
	vaultPath: string,
	notes: number,
	env: Record<string, string | undefined> = process.env,
): void {
	const file = env[BUILD_LOG_ENV];
	if (file === undefined || file === '') return;
	const path = resolve(file);
	if (path.startsWith(resolve(vaultPath) + sep)) return;
	try {
		appendFileSync(path, `${process.pid} ${vaultPath} ${notes}\n`);
	} catch {
		// A count for tests: a file that cannot be written costs the call nothing.
	}
}
