/** The CLI's version, kept in step with manifest.json by the release script. */
export const VERSION = '0.1.0';
