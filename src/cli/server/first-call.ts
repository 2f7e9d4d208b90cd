/**
 * A call that finds no server ready: it does not read the vault itself while a server reads it
 * too. It starts the vault's server (unless one is already starting: the pid file names it) and
 * waits for that server's answer, asking again while the server says it is still reading the
 * vault, with a progress line on a terminal. So a vault is read from scratch once, by the server,
 * however many calls arrive while it starts; the calls answer on their own only when the server
 * cannot start or stalls. The deadline follows the server's progress: it is how long the call
 * waits without seeing the read advance (the notes read, from the server's status), so a slow
 * read on a loaded machine is waited for, however long it takes, and a stuck one is not.
 */
import { setTimeout as pause } from 'node:timers/promises';
import { ProgressLine, progressWanted, type ProgressStream } from '../progress';
import { askServer, exchange, type Asked } from './client';
import { runningServerPid } from './pid-file';
import { SERVER_STAMP, socketPathFor } from './protocol';
import { startServer } from './spawn';

/**
 * How long a call waits for a starting server that shows no progress (its read did not advance)
 * before it answers on its own; every step of the read starts the wait anew.
 */
export const START_DEADLINE_MS = 180_000;

/** Pause between two asks while the server starts: how often to look, not how long to wait. */
const ASK_EVERY_MS = 100;

/** What waitForServer needs beyond the command line. */
export interface FirstCallOptions {
	env?: Record<string, string | undefined>;
	stderr?: ProgressStream;
	/** How long to wait without progress (default {@link START_DEADLINE_MS}). */
	deadlineMs?: number;
	/** Takes each piece of an answer the server streams (see askServer). */
	onOut?: (out: string | Uint8Array) => void | Promise<void>;
	/** Starts the server (tests may hand in their own). */
	start?: (vault: string) => void;
}

/** How far the server's first read is, from its status (null when it cannot say). */
async function buildingOf(vault: string, env: Record<string, string | undefined>) {
	const socket = socketPathFor(vault, env);
	if (socket === null) return null;
	const { reply } = await exchange(socket, { stamp: SERVER_STAMP, control: 'status' }, 2000);
	return reply !== null && 'status' in reply ? (reply.status.building ?? null) : null;
}

/**
 * After `first` found the vault's server absent or starting: starts one when none is starting and
 * waits for its answer. Resolves with the answer, or `skipped` (the call answers on its own) when
 * the server ended without answering or its read did not advance for the deadline.
 */
export async function waitForServer(
	argv: readonly string[],
	cwd: string,
	first: Extract<Asked, { kind: 'absent' | 'starting' }>,
	options: FirstCallOptions = {},
): Promise<Asked> {
	const env = options.env ?? process.env;
	const start = options.start ?? ((vault: string) => startServer(vault));
	const line = new ProgressLine(options.stderr ?? process.stderr, progressWanted(argv));
	const deadlineMs = options.deadlineMs ?? START_DEADLINE_MS;
	// The last progress seen (`read/total`) and when: the deadline counts from there.
	let seen = '';
	let advancedAt = performance.now();
	// The answer starts on a clean line: the progress line is erased before the first piece is written.
	const onOut = async (text: string | Uint8Array): Promise<void> => {
		line.end();
		await options.onOut?.(text);
	};
	let asked: Asked = first;
	let started = false;
	try {
		while (performance.now() - advancedAt < deadlineMs) {
			if (asked.kind === 'answered' || asked.kind === 'broken') return asked;
			// A live server that did not take the call in time is busy in a long step of its read (a
			// loaded machine): it is asked again, as a starting one, rather than read the vault twice.
			// A server that declined the call answered: the call runs on its own at once.
			if (asked.kind === 'skipped' && (asked.silent !== true || runningServerPid(first.vault) === null))
				return { kind: 'skipped' };
			if (asked.kind === 'absent' && runningServerPid(asked.vault) === null) {
				// A server started by this call that ended without listening will not answer: answer here.
				if (started) return { kind: 'skipped' };
				start(asked.vault);
				started = true;
			}
			if (asked.kind !== 'absent') {
				const building = await buildingOf(first.vault, env);
				// A status that did not come (a busy server) is no step back: only a new count is progress.
				const progress = building === null ? seen : `${building.read}/${building.total}`;
				if (progress !== seen) {
					seen = progress;
					advancedAt = performance.now();
				}
				line.update('reading the vault (background server)', building?.read ?? 0, building?.total ?? 0);
			}
			await pause(ASK_EVERY_MS);
			asked = await askServer(argv, cwd, env, undefined, onOut);
		}
		return { kind: 'skipped' };
	} finally {
		line.end();
	}
}
