import { Fragment, useLayoutEffect, useMemo, useRef } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import DoneIcon from '@mui/icons-material/Done';
import PetsIcon from '@mui/icons-material/Pets';
import ScheduleIcon from '@mui/icons-material/Schedule';
import { CHAT_MESSAGES, type ConversationDto } from '@pawhaven/contracts';
import { UserAvatar } from '../../shared/ui/UserAvatar';
import { VetBadge } from '../../shared/ui/VetBadge';
import { otherParticipant } from '../conversations';
import { dayLabel, messageTime } from '../labels';
import type { ChatMessage } from '../merge';
import { tickOf, type Tick } from '../receipts';
import { groupMessages, groupPosition, type GroupPosition } from '../grouping';
import { ChatLoading } from './ChatStates';
import { MessageInput } from './MessageInput';

export type ChatWindowProps = {
  conversation: ConversationDto;
  me: string;
  messages: ChatMessage[];
  loading: boolean;
  loadFailed: boolean;
  onRetryLoad: () => void;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  typing: boolean;
  online: boolean;
  onSend: (text: string) => Promise<boolean>;
  onTyping: () => void;
  /** Small screens: back to the list. */
  onBack?: () => void;
  autoFocus?: boolean;
};

/** The open conversation: header, messages (older pages on request), typing indicator, and the message box. */
export function ChatWindow(props: ChatWindowProps) {
  const { conversation, me, loading } = props;
  const other = otherParticipant(conversation, me);
  return (
    <Box
      component="section"
      aria-label={`Conversation with ${other.username}`}
      data-testid="chat-window"
      data-conversation-id={conversation._id}
      sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0, minWidth: 0 }}
    >
      <ChatHeader conversation={conversation} me={me} online={props.online} onBack={props.onBack} />
      {loading ? (
        <ChatLoading label={CHAT_MESSAGES.loadingConversation} testId="conversation-loading" />
      ) : (
        <MessageList {...props} otherName={other.username} />
      )}
      <MessageInput onSend={props.onSend} onTyping={props.onTyping} autoFocus={props.autoFocus} />
    </Box>
  );
}

function ChatHeader({
  conversation,
  me,
  online,
  onBack,
}: {
  conversation: ConversationDto;
  me: string;
  online: boolean;
  onBack?: () => void;
}) {
  const other = otherParticipant(conversation, me);
  return (
    <Box
      data-testid="chat-header"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1.25,
        px: { xs: 1, sm: 2 },
        py: 1,
        borderBottom: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        minWidth: 0,
      }}
    >
      {onBack && (
        <IconButton aria-label="Back to conversations" onClick={onBack} data-testid="chat-back" edge="start">
          <ArrowBackIcon />
        </IconButton>
      )}
      <Box sx={{ position: 'relative', flexShrink: 0 }}>
        <UserAvatar username={other.username} profileImage={other.profileImage} size={40} aria-hidden />
        <Box
          aria-hidden
          sx={{
            position: 'absolute',
            right: 0,
            bottom: 0,
            width: 11,
            height: 11,
            borderRadius: '50%',
            border: '2px solid #fff',
            bgcolor: online ? 'success.main' : 'grey.400',
          }}
        />
      </Box>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
          {other.id ? (
            <Link
              component={RouterLink}
              to={`/profile/public/${other.id}`}
              underline="hover"
              color="inherit"
              data-testid="chat-header-profile"
              sx={{
                fontWeight: 800,
                fontSize: '1.05rem',
                overflow: 'hidden',
                textOverflow: 'ellipsis',
                whiteSpace: 'nowrap',
                minWidth: 0,
              }}
            >
              {other.username}
            </Link>
          ) : (
            <Typography sx={{ fontWeight: 800 }}>{other.username}</Typography>
          )}
          {other.isVeterinarian && (
            <Box sx={{ display: { xs: 'none', sm: 'inline-flex' } }}>
              <VetBadge />
            </Box>
          )}
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap', rowGap: 0 }}>
          <Typography
            variant="caption"
            data-testid="presence-status"
            data-online={online ? 'true' : 'false'}
            sx={{ color: online ? 'success.main' : 'text.secondary', fontWeight: 700 }}
          >
            {online ? CHAT_MESSAGES.online : CHAT_MESSAGES.offline}
          </Typography>
          {conversation.ad && (
            <Link
              component={RouterLink}
              to="/adoption"
              variant="caption"
              data-testid="conversation-ad"
              sx={{
                display: 'inline-flex',
                alignItems: 'center',
                gap: 0.5,
                fontWeight: 700,
                minWidth: 0,
                maxWidth: '100%',
              }}
            >
              <PetsIcon sx={{ fontSize: 14 }} aria-hidden />
              <Box
                component="span"
                sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
              >
                About {conversation.ad.name}
              </Box>
            </Link>
          )}
        </Box>
      </Box>
    </Box>
  );
}

const TICK_LABEL: Record<Exclude<Tick, null>, string> = {
  sending: 'Sending',
  sent: 'Sent',
  delivered: 'Delivered',
  read: 'Read',
};

/** Sent: one tick; delivered: two faint ticks; read: two ticks. */
export function MessageTicks({ tick }: { tick: Tick }) {
  if (!tick) return null;
  const Icon = tick === 'sending' ? ScheduleIcon : tick === 'sent' ? DoneIcon : DoneAllIcon;
  return (
    <Box
      component="span"
      role="img"
      aria-label={TICK_LABEL[tick]}
      title={TICK_LABEL[tick]}
      data-testid="message-ticks"
      data-status={tick}
      sx={{
        display: 'inline-flex',
        color: tick === 'read' ? '#FFE08A' : 'inherit',
        opacity: tick === 'delivered' || tick === 'sending' ? 0.55 : 1,
      }}
    >
      <Icon sx={{ fontSize: 16 }} aria-hidden />
    </Box>
  );
}

/** The key of a message that survives the optimistic copy being replaced by the server's. */
const keyOf = (m: ChatMessage) => m.clientMessageId || m._id;

function MessageList({
  conversation,
  me,
  messages,
  loadFailed,
  onRetryLoad,
  hasOlder,
  loadingOlder,
  onLoadOlder,
  typing,
  otherName,
}: ChatWindowProps & { otherName: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const groups = useMemo(() => groupMessages(messages), [messages]);
  const memory = useRef<{ first?: string; last?: string; fromBottom: number; nearBottom: boolean } | null>(
    null,
  );

  // Opening: to the bottom. Older messages above: stay where the reader was. New ones: follow when at the bottom
  // (or when they are mine).
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const first = messages[0] ? keyOf(messages[0]) : undefined;
    const lastMessage = messages[messages.length - 1];
    const last = lastMessage ? keyOf(lastMessage) : undefined;
    const before = memory.current;
    if (!before) el.scrollTop = el.scrollHeight;
    else if (first !== before.first && last === before.last)
      el.scrollTop = el.scrollHeight - before.fromBottom;
    else if (last !== before.last && (before.nearBottom || lastMessage?.senderId === me))
      el.scrollTop = el.scrollHeight;
    memory.current = {
      first,
      last,
      fromBottom: el.scrollHeight - el.scrollTop,
      nearBottom: el.scrollHeight - el.scrollTop - el.clientHeight < 80,
    };
  }, [messages, me]);

  // The typing indicator appears at the bottom: keep it in view when the reader is there.
  useLayoutEffect(() => {
    const el = ref.current;
    if (el && typing && memory.current?.nearBottom) el.scrollTop = el.scrollHeight;
  }, [typing]);

  const onScroll = () => {
    const el = ref.current;
    if (!el || !memory.current) return;
    memory.current.fromBottom = el.scrollHeight - el.scrollTop;
    memory.current.nearBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
  };

  return (
    <Box
      ref={ref}
      onScroll={onScroll}
      data-testid="message-list"
      sx={{
        flex: 1,
        minHeight: 0,
        overflowY: 'auto',
        px: { xs: 1, sm: 2 },
        py: 1.5,
        bgcolor: 'background.default',
        display: 'flex',
        flexDirection: 'column',
        gap: 0.5,
      }}
    >
      {hasOlder && (
        <Box sx={{ textAlign: 'center', mb: 1 }}>
          <Button
            size="small"
            variant="outlined"
            onClick={onLoadOlder}
            disabled={loadingOlder}
            data-testid="load-older"
            startIcon={loadingOlder ? <CircularProgress size={14} aria-hidden /> : undefined}
          >
            {CHAT_MESSAGES.loadOlder}
          </Button>
        </Box>
      )}
      {loadFailed && messages.length === 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', my: 2 }}>
          {CHAT_MESSAGES.messagesLoadFailed}{' '}
          <Link component="button" type="button" onClick={onRetryLoad} sx={{ verticalAlign: 'baseline' }}>
            {CHAT_MESSAGES.tryAgain}
          </Link>
        </Typography>
      )}
      <Box
        component="ol"
        aria-label="Messages"
        data-conversation-id={conversation._id}
        sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column' }}
      >
        {groups.map((group, g) => {
          const newDay = g === 0 || groups[g - 1]!.day !== group.day;
          return (
            <Fragment key={group.key}>
              {newDay && (
                <Box component="li" aria-hidden sx={{ textAlign: 'center', my: 1 }}>
                  <Typography
                    variant="caption"
                    sx={{ bgcolor: 'rgba(61, 44, 41, 0.07)', borderRadius: 999, px: 1.5, py: 0.25 }}
                  >
                    {dayLabel(group.messages[0]!.createdAt)}
                  </Typography>
                </Box>
              )}
              {group.messages.map((m, i) => (
                <MessageBubble
                  key={keyOf(m)}
                  message={m}
                  me={me}
                  position={groupPosition(i, group.messages.length)}
                  spaced={i === 0 && !newDay}
                />
              ))}
            </Fragment>
          );
        })}
      </Box>
      {typing && (
        <Typography
          role="status"
          aria-live="polite"
          variant="body2"
          data-testid="typing-indicator"
          sx={{ color: 'text.secondary', fontStyle: 'italic', mt: 0.5, px: 0.5 }}
        >
          {otherName} is typing...
        </Typography>
      )}
    </Box>
  );
}

/** Rounded corners; the sender's side is tighter inside a group (and at the bottom, where the tail is). */
const ROUND = '18px';
const TIGHT = '5px';

/**
 * One bubble. Inside a group (consecutive messages of one sender within a few minutes) the bubbles sit close, their
 * corners on the sender's side are tight, and only the last one carries the time; my bubbles keep their own ticks.
 */
function MessageBubble({
  message,
  me,
  position,
  spaced,
}: {
  message: ChatMessage;
  me: string;
  position: GroupPosition;
  /** The first bubble of a group after another group: more room above. */
  spaced: boolean;
}) {
  const mine = message.senderId === me;
  const tick = tickOf(message, me);
  const startsGroup = position === 'single' || position === 'first';
  const endsGroup = position === 'single' || position === 'last';
  const top = startsGroup ? ROUND : TIGHT;
  return (
    <Box
      component="li"
      data-testid="message"
      data-message-id={message._id}
      data-client-message-id={message.clientMessageId || undefined}
      data-mine={mine ? 'true' : 'false'}
      data-pending={message.pending ? 'true' : undefined}
      data-status={tick ?? undefined}
      data-group-position={position}
      sx={{ display: 'flex', justifyContent: mine ? 'flex-end' : 'flex-start', mt: spaced ? 1 : '2px' }}
    >
      <Box
        sx={{
          maxWidth: { xs: '85%', sm: '72%' },
          minWidth: 0,
          px: 1.5,
          py: endsGroup ? 0.75 : 0.5,
          borderRadius: ROUND,
          borderTopRightRadius: mine ? top : undefined,
          borderBottomRightRadius: mine ? TIGHT : undefined,
          borderTopLeftRadius: mine ? undefined : top,
          borderBottomLeftRadius: mine ? undefined : TIGHT,
          bgcolor: mine ? 'primary.main' : 'background.paper',
          color: mine ? 'primary.contrastText' : 'text.primary',
          border: mine ? 0 : 1,
          borderColor: 'divider',
          opacity: message.pending ? 0.8 : 1,
        }}
      >
        <Typography
          data-testid="message-text"
          sx={{
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-word',
            overflowWrap: 'anywhere',
            fontSize: '0.975rem',
          }}
        >
          {message.text}
          {!endsGroup && tick && (
            <Box component="span" sx={{ float: 'right', ml: 1, mt: '5px', lineHeight: 0, opacity: 0.85 }}>
              <MessageTicks tick={tick} />
            </Box>
          )}
        </Typography>
        {endsGroup && (
          <Box
            sx={{
              display: 'flex',
              justifyContent: 'flex-end',
              alignItems: 'center',
              gap: 0.5,
              mt: 0.25,
              opacity: 0.85,
            }}
          >
            <Typography component="span" variant="caption" sx={{ fontSize: '0.7rem', color: 'inherit' }}>
              <time dateTime={message.createdAt}>{messageTime(message.createdAt)}</time>
            </Typography>
            <MessageTicks tick={tick} />
          </Box>
        )}
      </Box>
    </Box>
  );
}
