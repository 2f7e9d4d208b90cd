/**
 * A call that arrives before what it needs is ready waits for it — the vault's metadata for every
 * tool, the search index too for `search` and `pack` — and, when the client sent a progress token,
 * says so in progress notifications: one at once, then one a second, each with what is being built.
 */
import { clearInterval, setInterval } from 'node:timers';
import type { ServerContext } from '@modelcontextprotocol/server';
import type { VaultSession } from '../warm/session';
import type { StartingVault } from './starting';

/** The tools that need the search index (the rest answer from metadata). */
const NEED_SEARCH = new Set(['search', 'pack']);

/** Seconds between two progress notifications while a call waits. */
const PROGRESS_EVERY_MS = 1000;

/** Resolves with `work`'s value; meanwhile notifies the client's progress token (if any) with `describe()`. */
async function withProgress<T>(
	work: Promise<T>,
	describe: () => string,
	ctx: ServerContext | undefined,
	steps: { sent: number },
): Promise<T> {
	const token = ctx?.mcpReq._meta?.progressToken;
	if (token === undefined || ctx === undefined) return work;
	const notify = (): void => {
		// One count for the whole call, so progress only grows (the protocol's rule) across its waits.
		const progress = ++steps.sent;
		ctx.mcpReq
			.notify({
				method: 'notifications/progress',
				params: { progressToken: token, progress, message: describe() },
			})
			.catch(() => undefined); // a client gone meanwhile gets no progress; the call's own answer reports it
	};
	notify();
	const timer = setInterval(notify, PROGRESS_EVERY_MS);
	timer.unref();
	try {
		return await work;
	} finally {
		clearInterval(timer);
	}
}

/**
 * Runs `call` on the session `tool` runs on, once what it needs is ready (see the module comment);
 * rejects when the vault could not be opened. The call holds the session from before it waits
 * for the search index until it is answered, so the start's saves wait for its answer.
 */
export async function withSessionFor<T>(
	tool: string,
	vault: StartingVault,
	ctx: ServerContext | undefined,
	call: (session: VaultSession) => Promise<T>,
): Promise<T> {
	const describe = (): string => `waiting: ${vault.progress().detail}`;
	const steps = { sent: 0 };
	const session = vault.ready() ?? (await withProgress(vault.open(), describe, ctx, steps)).session;
	const release = session.hold();
	try {
		const engine = session.peek().engine;
		if (NEED_SEARCH.has(tool) && engine.searchState !== 'ready')
			await withProgress(
				engine.searchIndex().catch(() => undefined), // a failed build is the tool's own answer to report
				describe,
				ctx,
				steps,
			);
		return await call(session);
	} finally {
		release();
	}
}
