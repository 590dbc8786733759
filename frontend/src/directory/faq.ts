/**
 * The FAQ's one-open rule: clicking a question opens its answer and closes any other; clicking the open question closes
 * it.
 */
export const toggleOpen = (open: string | null, id: string): string | null => (open === id ? null : id);
