/**
 * Prose and link text: what a section *says* versus what it *points at*. Seed rule 5 ("metadata
 * is not evidence … a claim needs a quote from the body") extends to addresses written in the
 * body: "Still open: [[research/copilot-data-handling]]" names a note about Copilot data
 * handling, it says nothing about it. So the text a pack grades and quotes is split in two:
 * - **prose**: the text a reader reads as sentences, with link syntax blanked out;
 * - **link text**: the words inside link syntax — a wikilink's display text, or its target
 *   when it has none (`#`/`^` as spaces); a Markdown link's text; bare URLs; inline `#tags`.
 *   Embeds (`![[…]]`, `![…](…)`), wikilink targets behind a display text and Markdown link
 *   URLs are dropped altogether: they are addresses the reader never reads.
 * Link text still counts, but weaker ({@link LINK_WEIGHT}): a section whose words for a
 * sub-question are only link text can be at most `partial` (grade.ts), and it scores and quotes
 * below prose. A question sentence ("What do we know about X?") restates what is asked rather
 * than answering it, so it ranks below declarative sentences holding the same words
 * ({@link QUESTION_WEIGHT}).
 */

/** Weight of a key word met only in link text, against 1 for prose (scores and quote ranking). */
export const LINK_WEIGHT = 0.3; // why: the same as a title/tag match (retrieve.ts META_WEIGHT): an address guides retrieval, it is not evidence.
/** Factor on a question sentence's quote score. */
export const QUESTION_WEIGHT = 0.5; // why: below a declarative sentence with the same words, yet above one holding them only as link text (0.3).

/**
 * Link syntax, in the order tried at each position: embeds, wikilinks (group 1: inside),
 * Markdown links (group 2: text), bare URLs, inline tags (group 4, after group 3: a text start
 * or a space; at least one non-digit, as Obsidian tags are).
 */
const LINK_SYNTAX =
	/!\[\[[^\]]*\]\]|!\[[^\]]*\]\([^)]*\)|\[\[([^\]]*)\]\]|\[([^\]]*)\]\([^)]*\)|\bhttps?:\/\/[^\s<>)\]]+|(^|\s)(#(?=[\p{L}\p{N}_/-]*[\p{L}_/-])[\p{L}\p{N}_/-]+)/gu;

/** A text split into its prose and its link text (see the module comment). */
export interface ReaderText {
	/** The text with link syntax blanked out (a space each). */
	prose: string;
	/** The words of the link syntax, one link per line; '' when there is none. */
	links: string;
}

/**
 * Split a text into prose and link text.
 *
 * @example
 * readerText('Still open: [[research/copilot-data-handling]], see #security.');
 * // { prose: 'Still open:  , see  .', links: 'research/copilot-data-handling\n#security' }
 */
export function readerText(text: string): ReaderText {
	if (!text.includes('[') && !text.includes('#') && !text.includes('://')) return { prose: text, links: '' };
	const links: string[] = [];
	const prose = text.replace(
		LINK_SYNTAX,
		(
			m: string,
			wiki: string | undefined,
			label: string | undefined,
			before: string | undefined,
			tag: string | undefined,
		) => {
			if (m.startsWith('!')) return ' ';
			if (wiki !== undefined) {
				const bar = wiki.indexOf('|');
				links.push(bar >= 0 ? wiki.slice(bar + 1) : wiki.replace(/#\^?/g, ' '));
			} else if (label !== undefined) links.push(label);
			else if (tag !== undefined) {
				links.push(tag);
				return `${before ?? ''} `;
			} else links.push(m);
			return ' ';
		},
	);
	return { prose, links: links.join('\n') };
}

/** Whether a sentence is a question: it ends with `?` or `？` (closing quotes, brackets and emphasis aside). */
export function isQuestion(sentence: string): boolean {
	return /[?？][\s"'”’»」』)）\]*_]*$/u.test(sentence);
}

/**
 * Words a pointer sentence is made of besides its links: "see", "the facts so far are in",
 * "raised in", "more in", "参见", "を参照". A sentence whose prose holds nothing else says
 * where the answer is, not what it is.
 */
const POINTER_WORDS = new Set(
	'see also cf compare more details detail facts fact notes note info information answer answers so far are is in at on under the a an for to of refer read check go raised related source sources here there this that these those now and or'.split(
		' ',
	),
);
/** The pointer words that do the pointing (the rest only join them). */
const POINTING = new Set('see cf refer read check go raised related source sources details facts more'.split(' '));
/** CJK pointer phrases (Chinese 参见/详见/请参阅…, Japanese を参照/詳しくは…), with what may surround them. */
const CJK_POINTER =
	/^(?:[请請]?(?:参见|參見|详见|詳見|参阅|參閱|参考|參考|见|見)|(?:詳しくは|詳細は)?.{0,2}(?:を)?(?:参照|参考|ご覧)(?:してください|ください)?|关于|相关|関連|詳しくは|詳細は)+$/u;

/** Whether a sentence only points elsewhere: it has a link, and its prose outside links holds only pointer words ("See [[X]].", "The facts so far are in [[X]]."). */
export function isPointer(sentence: string): boolean {
	const { prose, links } = readerText(sentence);
	if (links === '' || !/\[|https?:/.test(sentence)) return false;
	const words = prose.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
	// "[[A]] is [[B]]" is a claim made of links; a pointer has a word that points (or none at all: a bare link).
	return (
		words.every((w) => POINTER_WORDS.has(w) || CJK_POINTER.test(w)) &&
		(words.length === 0 || words.some((w) => POINTING.has(w) || CJK_POINTER.test(w)))
	);
}

/**
 * Whether a text (a paragraph or list item) may hold a question or a pointer sentence, cheaply,
 * before paying for sentence segmentation: a question mark, or a link with either no words
 * around it or a word that points. Most units of a link-heavy vault fail the second test.
 * `split` is the text's readerText, when the caller has it already.
 */
export function mayAskOrPoint(text: string, split: ReaderText = readerText(text)): boolean {
	if (/[?？]/.test(text)) return true;
	if (!/\[|https?:/.test(text)) return false;
	const { prose, links } = split;
	if (links === '') return false;
	const words = prose.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
	return words.length === 0 || words.some((w) => POINTING.has(w) || CJK_POINTER.test(w));
}

/** The link targets a sentence writes (wikilinks and Markdown links to notes; embeds and URLs left out). */
export function linkTargets(sentence: string): string[] {
	const out: string[] = [];
	for (const m of sentence.matchAll(/(!?)\[\[([^\]|]+)(?:\|[^\]]*)?\]\]|(!?)\[[^\]]*\]\(([^)\s]+)\)/g)) {
		if (m[1] === '!' || m[3] === '!') continue;
		const target = m[2] ?? decodeURIComponentSafe(m[4] ?? '');
		if (target !== '' && !/^[a-z]+:/i.test(target)) out.push(target.trim());
	}
	return out;
}

/** `decodeURIComponent`, or the text itself when it is not valid percent-encoding. */
function decodeURIComponentSafe(s: string): string {
	try {
		return decodeURIComponent(s);
	} catch {
		return s;
	}
}
