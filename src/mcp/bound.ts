/**
 * Keeps every tool response under a byte budget (default 64 KB). Past it, a list is cut at a
 * whole item — never mid-result — and the response says so in `limitations` and in a
 * `truncated` object telling the agent how to get the rest.
 */

/** Default response budget in bytes (UTF-8 of the JSON), configurable with `--max-bytes`. */
export const DEFAULT_MAX_BYTES = 64 * 1024;

/** Added to a cut response: what was kept and the call that continues. */
export interface Truncation {
	/** The list that was cut (`results`, `pack`). */
	field: string;
	/** Items kept in this response. */
	kept: number;
	/** Items the full answer had; null when the query stopped at its limit without counting the rest. */
	total: number | null;
	/** The response budget in bytes; null when the cut is the query's own limit, not the size. */
	max_bytes: number | null;
	/** How to get the rest, e.g. `call again with offset: 12`. */
	next: string;
}

/** UTF-8 size of a value's JSON. */
export function jsonBytes(value: unknown): number {
	return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/**
 * `value` with `value[field]` cut to as many leading items as fit in `maxBytes` (found by binary
 * search, so a 1,000-result answer costs ~10 serialisations, not 1,000). `next(kept)` words the
 * follow-up call. Returns `value` unchanged when it already fits.
 */
export function boundList<T extends object>(
	value: T,
	field: keyof T & string,
	maxBytes: number,
	next: (kept: number) => string,
): T {
	if (jsonBytes(value) <= maxBytes) return value;
	const list = value[field];
	if (!Array.isArray(list)) return value;
	const withCount = (kept: number): T => {
		// A list that is itself the head of a longer answer (`more`: a grep that stopped at its limit) has no known total.
		const total = (value as { more?: unknown }).more === true ? null : list.length;
		const truncated: Truncation = { field, kept, total, max_bytes: maxBytes, next: next(kept) };
		const limitations = Array.isArray((value as { limitations?: unknown }).limitations)
			? (value as { limitations: string[] }).limitations
			: [];
		const note = `Response cut at ${kept} of ${total ?? `${list.length}+`} ${field} to stay within ${maxBytes} bytes; ${truncated.next}`;
		return { ...value, [field]: list.slice(0, kept), limitations: [...limitations, note], truncated };
	};
	let lo = 0;
	let hi = list.length - 1;
	while (lo < hi) {
		const mid = (lo + hi + 1) >> 1;
		if (jsonBytes(withCount(mid)) <= maxBytes) lo = mid;
		else hi = mid - 1;
	}
	return withCount(lo);
}

/** UTF-8 bytes of a line plus its newline, as written (`raw`) or inside a JSON string (escapes counted). */
function lineBytes(line: string, inJson: boolean): number {
	return inJson ? Buffer.byteLength(JSON.stringify(line), 'utf8') : Buffer.byteLength(line, 'utf8') + 1;
}

/** Text cut at a whole line to fit `maxBytes` of UTF-8 (of its JSON string form when `inJson`), with the number of lines kept. */
export function boundLines(
	text: string,
	maxBytes: number,
	inJson = false,
): { text: string; lines: number; cut: boolean } {
	const lines = text.split('\n');
	if ((inJson ? jsonBytes(text) : Buffer.byteLength(text, 'utf8')) <= maxBytes)
		return { text, lines: lines.length, cut: false };
	let used = 0;
	let kept = 0;
	for (const line of lines) {
		const size = lineBytes(line, inJson);
		if (used + size > maxBytes) break;
		used += size;
		kept++;
	}
	return { text: lines.slice(0, kept).join('\n'), lines: kept, cut: true };
}

/**
 * A note read cut to `maxBytes` at a whole line: the text keeps its first lines, `lines[1]`
 * moves back, and `truncated.next` names the `from` line that continues.
 */
export function boundNote(value: Record<string, unknown>, maxBytes: number): Record<string, unknown> {
	if (jsonBytes(value) <= maxBytes) return value;
	const results = value.results as { text: string; lines: [number, number] }[] | undefined;
	const note = results?.[0];
	if (!note) return value;
	const overhead = jsonBytes({ ...value, results: [{ ...note, text: '' }] }) + 400;
	const cut = boundLines(note.text, Math.max(0, maxBytes - overhead), true);
	const last = note.lines[0] + cut.lines - 1;
	const next = `call note again with from: ${last + 1}`;
	const truncated: Truncation = {
		field: 'text',
		kept: cut.lines,
		total: note.lines[1] - note.lines[0] + 1,
		max_bytes: maxBytes,
		next,
	};
	const limitations = [
		...((value.limitations as string[] | undefined) ?? []),
		`Response cut after line ${last} to stay within ${maxBytes} bytes; ${next}`,
	];
	return { ...value, results: [{ ...note, text: cut.text, lines: [note.lines[0], last] }], limitations, truncated };
}

/** Longest string an answer echoes of the call's own arguments (see ECHO_MEMBERS); the agent sent the rest itself. */
export const ECHO_MAX_CHARS = 1000;

/** `value` with every string longer than `max` characters cut to its start and a note of its length. */
function cutStrings(value: unknown, max: number): unknown {
	if (typeof value === 'string')
		return value.length > max ? `${value.slice(0, max)}… (${value.length} characters; cut)` : value;
	if (Array.isArray(value)) return value.map((item) => cutStrings(item, max));
	if (value !== null && typeof value === 'object')
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutStrings(v, max)]));
	return value;
}

/** The members of an answer that repeat what the call sent (its query, and messages that quote it). */
const ECHO_MEMBERS = ['query', 'error', 'limitations', 'suggestions', 'advice', 'tried'];

/** The answer with every string of its echo members cut to `ECHO_MAX_CHARS`, so a 1 MB argument is not sent back. */
export function boundEcho<T>(answer: T): T {
	if (answer === null || typeof answer !== 'object') return answer;
	const out = { ...answer } as Record<string, unknown>;
	for (const key of ECHO_MEMBERS) if (key in out) out[key] = cutStrings(out[key], ECHO_MAX_CHARS);
	return out as T;
}
