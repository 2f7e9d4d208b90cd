/**
 * A quoted phrase of a search: found as a literal (never turned into a regex, so its length is no
 * hazard), case-insensitive, in NFC, any run of whitespace in the note matching any run in the phrase.
 */
import { lowerCase, nfc } from './normalize';

/** The comparable form of a text or a phrase: NFC, lower case, whitespace runs as one space. */
export function phraseForm(text: string): string {
	return lowerCase(nfc(text)).replace(/\s+/g, ' ');
}

/** A phrase test over note texts. */
export interface PhraseMatcher {
	/** The phrase as typed. */
	readonly phrase: string;
	/** Whether `text` holds the phrase. */
	test(text: string): boolean;
}

/** The matcher for one phrase (its surrounding whitespace ignored). */
export function phraseMatcher(phrase: string): PhraseMatcher {
	const needle = phraseForm(phrase.trim());
	return { phrase, test: (text) => phraseForm(text).includes(needle) };
}
