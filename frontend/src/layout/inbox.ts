import { lazy } from 'react';

/**
 * The Inbox link's label with its unread count (header and drawer) and the live conversation list behind it: their own chunk, loaded
 * for signed-in users only, so visitors never download the chat client.
 */
const load = () => import('../chat/InboxBadge');
export const InboxLabel = lazy(() => load().then((m) => ({ default: m.InboxLabel })));
export const InboxLive = lazy(() => load().then((m) => ({ default: m.InboxLive })));
export const InboxDot = lazy(() => load().then((m) => ({ default: m.InboxDot })));
