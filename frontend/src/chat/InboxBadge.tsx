import type { ReactNode } from 'react';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import { useSession } from '../shared/session';
import { visuallyHidden } from '../shared/ui/visually-hidden';
import { UnreadPill } from './components/UnreadPill';
import { unreadBadge, unreadConversationsText } from './conversations';
import { userIdOf } from '../shared/user-id';
import { useConversationListLive, useUnreadConversations } from './hooks';

/** The signed-in user's id when they can chat. */
const useMe = () => {
  const { user, token, ready } = useSession();
  return ready && token ? userIdOf(user) : null;
};

/** Keeps the conversation list live for the whole app (mounted once, in the header, for signed-in users). */
export function InboxLive() {
  useConversationListLive(useMe());
  return null;
}

/**
 * The Inbox link's label (header and drawer) with the number of conversations that have unread messages: for the eye
 * the conversation badge's format ('9+' above 9), for screen readers the whole name in words, 'Inbox, 2 unread
 * conversations'. Just the label when there are none. It only reads the list `InboxLive` keeps.
 */
export function InboxLabel({ label }: { label: string }) {
  const unread = useUnreadConversations(useMe());
  const badge = unreadBadge(unread);
  if (!badge) return <>{label}</>;
  return (
    <>
      <Box component="span" sx={visuallyHidden}>
        {`${label}, ${unreadConversationsText(unread)}`}
      </Box>
      <Box component="span" aria-hidden>
        {label}
      </Box>
      <Box component="span" sx={{ ml: 0.75 }}>
        <UnreadPill text={badge} testId="inbox-badge" />
      </Box>
    </>
  );
}

/**
 * A dot on the menu button of narrow screens (where the header's links are in the drawer) while a conversation has
 * unread messages; the drawer's Inbox entry says how many.
 */
export function InboxDot({ children }: { children: ReactNode }) {
  const unread = useUnreadConversations(useMe());
  return (
    <Badge variant="dot" color="primary" invisible={unread === 0} data-testid="inbox-dot">
      {children}
    </Badge>
  );
}
