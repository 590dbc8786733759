/** The one UUID pattern: the canonical 36-character form, hex digits in either case. */
const PATTERN = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const UUID = new RegExp(`^${PATTERN}$`, 'i');
const UUID_INSIDE = new RegExp(PATTERN, 'i');

/** Whether `s` is a UUID in its canonical 36-character form (any case): every id in the log and the read models is. */
export const isUuid = (s: string): boolean => UUID.test(s);

/**
 * Whether `s` is a UUID in lower case, the form a uuid column gives back. A read model that keys rows by an id taken
 * from an event as it is accepts only this form: its rebuild compares keys as text, where an upper-case id and its
 * lower-case twin are two rows, while the column folds them into one (or it lower-cases the id first).
 */
export const isLowerCaseUuid = (s: string): boolean => UUID.test(s) && s === s.toLowerCase();

/** Where the first UUID inside `s` starts (any case), or -1: how a stream id's aggregate id is found. */
export const uuidIndex = (s: string): number => s.search(UUID_INSIDE);
