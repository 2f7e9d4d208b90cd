/**
 * One progress line on stderr for long work (reading a vault from scratch, waiting for the
 * server that does): shown only on a terminal, only once the work has taken ~2 s, rewritten in
 * place (carriage return, erase to the end of the line) and erased when the work ends. Piped
 * stderr, `--json` and `--quiet` get nothing, so scripts and agents read only the answer.
 */

/** What the line is written to: process.stderr, or a fake one in tests. */
export interface ProgressStream {
	isTTY?: boolean;
	columns?: number;
	write(text: string): unknown;
}

/** How long work runs before its progress is shown. */
export const PROGRESS_AFTER_MS = 2000;

/** The environment variable that sets another delay in ms (0: at once), so a test can see the line on a small vault. */
export const PROGRESS_AFTER_ENV = 'VAULT_QUERY_PROGRESS_AFTER_MS';

/** The delay before a progress line is shown: {@link PROGRESS_AFTER_ENV} when it is a whole number, else the default. */
export function progressAfterMs(env: Record<string, string | undefined> = process.env): number {
	const set = env[PROGRESS_AFTER_ENV];
	return set !== undefined && /^[0-9]{1,7}$/.test(set) ? Number(set) : PROGRESS_AFTER_MS;
}

/** Whether a command line wants progress at all: not with `--json` or `--quiet` (before `--`). */
export function progressWanted(argv: readonly string[]): boolean {
	const end = argv.indexOf('--');
	const flags = end === -1 ? argv : argv.slice(0, end);
	return !flags.includes('--json') && !flags.includes('--quiet') && !flags.includes('-q');
}

/** `12,345`. */
function count(n: number): string {
	return n.toLocaleString('en-US');
}

/** `about 12 s left` / `about 2 min left`. */
function eta(ms: number): string {
	const s = Math.max(1, Math.round(ms / 1000));
	return s < 90 ? `about ${s} s left` : `about ${Math.round(s / 60)} min left`;
}

/** The self-rewriting progress line of one piece of long work (see the module comment). */
export class ProgressLine {
	private readonly startedAt: number;
	private shown = false;
	private readonly enabled: boolean;

	/** `now` is injectable so the renderer is tested without waiting. */
	constructor(
		private readonly stream: ProgressStream,
		wanted: boolean,
		private readonly now: () => number = () => performance.now(),
		private readonly afterMs: number = progressAfterMs(),
	) {
		this.enabled = wanted && stream.isTTY === true;
		this.startedAt = now();
	}

	/** Reports `done` of `total` notes in `phase`; draws the line once the work has run long enough. */
	update(phase: string, done: number, total: number): void {
		if (!this.enabled) return;
		const elapsed = this.now() - this.startedAt;
		if (elapsed < this.afterMs) return;
		const parts = [`vault-query: ${phase}`];
		if (total > 0) parts.push(`${count(done)} / ${count(total)} notes`);
		if (total > 0 && done > 0 && done < total) parts.push(eta((elapsed / done) * (total - done)));
		const width = Math.max(20, (this.stream.columns ?? 80) - 1);
		this.stream.write(`\r${parts.join(', ').slice(0, width)}\x1b[K`);
		this.shown = true;
	}

	/** Erases the line, if one was drawn: the answer follows on a clean line. */
	end(): void {
		if (!this.shown) return;
		this.stream.write('\r\x1b[K');
		this.shown = false;
	}
}
