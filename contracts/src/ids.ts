const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `s` is a UUID in its canonical 36-character form (any case): every id in the log and the read models is. */
export const isUuid = (s: string): boolean => UUID.test(s);
