import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import SearchIcon from '@mui/icons-material/Search';
import { CHAT_MESSAGES, type ConversationDto } from '@pawhaven/contracts';
import { UserAvatar } from '../../shared/ui/UserAvatar';
import { otherParticipant, previewOf, unreadBadge } from '../conversations';
import { listTime } from '../labels';
import { visuallyHidden } from '../../shared/ui/visually-hidden';
import { UnreadPill } from './UnreadPill';

/**
 * The conversation list pane: 'Messages', the search box 'Search conversations...', and one entry per
 * conversation (newest first) with the other member, the time, the preview (35 characters) and the unread badge.
 */
export function ConversationList({
  conversations,
  me,
  selectedId,
  search,
  onSearch,
  onSelect,
  totalCount,
}: {
  conversations: ConversationDto[];
  me: string;
  selectedId: string | null;
  search: string;
  onSearch: (value: string) => void;
  onSelect: (conversation: ConversationDto) => void;
  /** How many there are before the search (to tell 'none yet' from 'none match'). */
  totalCount: number;
}) {
  return (
    <Box
      component="section"
      aria-labelledby="chat-list-title"
      data-testid="conversation-list-pane"
      sx={{ display: 'flex', flexDirection: 'column', minHeight: 0, height: '100%' }}
    >
      <Box sx={{ px: 2, pt: 2, pb: 1 }}>
        <Typography id="chat-list-title" variant="h5" component="h1">
          {CHAT_MESSAGES.messagesTitle}
        </Typography>
        <TextField
          value={search}
          onChange={(e) => onSearch(e.target.value)}
          placeholder={CHAT_MESSAGES.searchPlaceholder}
          size="small"
          margin="dense"
          type="search"
          slotProps={{
            htmlInput: { 'aria-label': 'Search conversations', 'data-testid': 'conversation-search' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" aria-hidden />
                </InputAdornment>
              ),
            },
          }}
        />
      </Box>
      {conversations.length === 0 ? (
        <Typography
          color="text.secondary"
          sx={{ px: 2, py: 3, textAlign: 'center' }}
          data-testid="no-conversations"
        >
          {totalCount === 0 ? CHAT_MESSAGES.noConversations : CHAT_MESSAGES.noSearchResults}
        </Typography>
      ) : (
        <List
          aria-label="Conversations"
          data-testid="conversation-list"
          sx={{ flex: 1, minHeight: 0, overflowY: 'auto', py: 0 }}
        >
          {conversations.map((c) => (
            <ConversationItem
              key={c._id}
              conversation={c}
              me={me}
              selected={c._id === selectedId}
              onSelect={() => onSelect(c)}
            />
          ))}
        </List>
      )}
    </Box>
  );
}

function ConversationItem({
  conversation,
  me,
  selected,
  onSelect,
}: {
  conversation: ConversationDto;
  me: string;
  selected: boolean;
  onSelect: () => void;
}) {
  const other = otherParticipant(conversation, me);
  const badge = unreadBadge(conversation.unreadCount);
  const preview = previewOf(conversation);
  const when = listTime(conversation.lastMessage?.createdAt ?? conversation.updatedAt);
  return (
    <li>
      <ListItemButton
        selected={selected}
        aria-current={selected ? 'true' : undefined}
        onClick={onSelect}
        data-testid="conversation-item"
        data-conversation-id={conversation._id}
        data-user-id={other.id ?? ''}
        sx={{ gap: 1.5, py: 1.25, px: 2, alignItems: 'center', borderBottom: 1, borderColor: 'divider' }}
      >
        <UserAvatar username={other.username} profileImage={other.profileImage} size={44} aria-hidden />
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1 }}>
            <Typography
              component="span"
              data-testid="conversation-name"
              sx={{
                fontWeight: badge ? 800 : 700,
                flex: 1,
                minWidth: 0,
                overflow: 'hidden',
                textOverflow: 'ellipsis',
                whiteSpace: 'nowrap',
              }}
            >
              {other.username}
            </Typography>
            {when && (
              <Typography component="span" variant="caption" color="text.secondary" sx={{ flexShrink: 0 }}>
                {when}
              </Typography>
            )}
          </Box>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Typography
              component="span"
              variant="body2"
              data-testid="conversation-preview"
              sx={{
                flex: 1,
                minWidth: 0,
                overflow: 'hidden',
                textOverflow: 'ellipsis',
                whiteSpace: 'nowrap',
                color: badge ? 'text.primary' : 'text.secondary',
                fontWeight: badge ? 700 : 400,
                fontStyle: conversation.lastMessage ? 'normal' : 'italic',
              }}
            >
              {preview}
            </Typography>
            {badge && (
              <>
                <UnreadPill text={badge} testId="unread-badge" />
                <Box component="span" sx={visuallyHidden}>
                  {`, ${conversation.unreadCount} unread`}
                </Box>
              </>
            )}
          </Box>
        </Box>
      </ListItemButton>
    </li>
  );
}
