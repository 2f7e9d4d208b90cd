/**
 * The MCP server's vault while it opens: the server answers `initialize` and `tools/list` at
 * once, and each call waits here for what it needs — the metadata for every tool, the search
 * index too for search and pack (engine.ts) — while `status` says what is being built and how far
 * along it is.
 */
import type { WarmVault } from '../warm/host';
import type { VaultSession } from '../warm/session';

/** How far the start is: notes read of how many while opening, then whether the search index is built. */
export interface StartProgress {
	/** `opening`: reading the vault (and its snapshot); `ready`: calls are answered; `failed`: it could not be opened. */
	phase: 'opening' | 'ready' | 'failed';
	/** Notes read so far and how many to read (null until known; a warm snapshot reads none). */
	read: number;
	total: number | null;
	/** One line for a person: what is being built and how far along. */
	detail: string;
}

/** The vault as it opens (see the module comment). */
export class StartingVault {
	private warm: WarmVault | null = null;
	private failure: string | null = null;
	private read = 0;
	private total: number | null = null;
	private readonly opened: Promise<WarmVault>;

	constructor(
		readonly vaultPath: string,
		opening: Promise<WarmVault>,
	) {
		this.opened = opening.then(
			(warm) => (this.warm = warm),
			(error: unknown) => {
				this.failure = error instanceof Error ? error.message : String(error);
				throw error;
			},
		);
		this.opened.catch(() => undefined); // a failure is reported to each call that waits, not as an unhandled rejection
	}

	/** Notes read so far of `total` (the opener's progress). */
	reading(read: number, total: number): void {
		this.read = read;
		this.total = total;
	}

	/** The warm vault once open; rejects with why it could not be opened. */
	open(): Promise<WarmVault> {
		return this.opened;
	}

	/** The session now, or null while the vault opens. */
	ready(): VaultSession | null {
		return this.warm?.session ?? null;
	}

	/** Where the start is (see StartProgress). */
	progress(): StartProgress {
		if (this.failure !== null)
			return {
				phase: 'failed',
				read: this.read,
				total: this.total,
				detail: `the vault could not be opened: ${this.failure}`,
			};
		if (this.warm === null) {
			const of =
				this.total === null
					? 'reading the vault and its index snapshot'
					: `reading notes: ${this.read} of ${this.total}`;
			return { phase: 'opening', read: this.read, total: this.total, detail: `opening the vault (${of})` };
		}
		const search = this.warm.session.peek().engine.searchState;
		const detail =
			search === 'ready'
				? 'ready'
				: `metadata ready; search index ${search === 'building' ? 'building' : 'not built yet'}`;
		return { phase: 'ready', read: this.read, total: this.total, detail };
	}
}
