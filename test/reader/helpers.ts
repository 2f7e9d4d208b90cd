import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ReaderReport } from '../../src/core/reader/index';
import { cli } from '../helpers/cli';
import { EXAMPLE_VAULT } from '../helpers/paths';

/** A reader CLI run with `--json`: exit code, the parsed report, stderr. */
export async function readerJson(
	args: string[],
	vault = EXAMPLE_VAULT,
): Promise<{ code: number; report: ReaderReport; stderr: string }> {
	const run = await cli([...args, '--vault', vault, '--json']);
	return { code: run.code, report: JSON.parse(run.stdout) as ReaderReport, stderr: run.stderr };
}

/** Result paths in report order. */
export function paths(report: ReaderReport): string[] {
	return report.results.map((r) => r.path);
}

/** A throwaway vault in the OS temp folder (never one of the shared vaults). */
export function tempVault(files: Record<string, string>): string {
	const root = mkdtempSync(join(tmpdir(), 'vq-reader-'));
	for (const [path, text] of Object.entries(files)) {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), text);
	}
	return root;
}

/** A minimal schema note in the canonical format. */
export const SMALL_SCHEMA =
	'# Schema\n\n```yaml\nfields:\n  type: [claim, skill]\n  status: [active, archived]\n  rating: number\n```\n';
