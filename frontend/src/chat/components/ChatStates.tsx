import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import ForumIcon from '@mui/icons-material/ForumOutlined';
import LockIcon from '@mui/icons-material/LockOutlined';
import ErrorIcon from '@mui/icons-material/ErrorOutline';
import { CHAT_MESSAGES } from '@pawhaven/contracts';

/** A centred message filling its pane. */
function Centered({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Box
      data-testid={testId}
      sx={{
        flex: 1,
        minHeight: 0,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        textAlign: 'center',
        gap: 1.5,
        p: { xs: 2, sm: 4 },
      }}
    >
      {children}
    </Box>
  );
}

const iconSx = { color: 'primary.light', '& svg': { fontSize: 52 } } as const;

/**
 * Visitors: 'You need to sign in to access chat' with a Sign In link; also a stored user whose id is unusable.
 */
export function SignInRequired({ message = CHAT_MESSAGES.signInRequired }: { message?: string }) {
  return (
    <Centered testId="chat-signin-required">
      <Box aria-hidden sx={iconSx}>
        <LockIcon />
      </Box>
      <Typography
        variant="h6"
        component="h1"
        role={message === CHAT_MESSAGES.signInRequired ? undefined : 'alert'}
      >
        {message}
      </Typography>
      <Button component={RouterLink} to="/signin" variant="contained">
        {CHAT_MESSAGES.signIn}
      </Button>
    </Centered>
  );
}

/** 'Loading your messages...' or 'Loading conversation...'. */
export function ChatLoading({ label, testId }: { label: string; testId?: string }) {
  return (
    <Centered testId={testId}>
      <CircularProgress aria-hidden size={32} />
      <Typography role="status" aria-live="polite" color="text.secondary">
        {label}
      </Typography>
    </Centered>
  );
}

/** 'Error loading chat', the message, and 'Try Again'. */
export function ChatError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Centered testId="chat-error">
      <Box aria-hidden sx={{ ...iconSx, color: 'error.main' }}>
        <ErrorIcon />
      </Box>
      <Typography variant="h6" component="h1">
        {CHAT_MESSAGES.errorTitle}
      </Typography>
      <Typography role="alert" color="text.secondary" sx={{ maxWidth: 480, wordBreak: 'break-word' }}>
        {message}
      </Typography>
      <Button variant="contained" onClick={onRetry}>
        {CHAT_MESSAGES.tryAgain}
      </Button>
    </Centered>
  );
}

/** No conversation open: 'Start a Conversation', and on small screens 'View Conversations'. */
export function ChatEmpty({ onViewConversations }: { onViewConversations?: () => void }) {
  return (
    <Centered testId="chat-empty">
      <Box aria-hidden sx={iconSx}>
        <ForumIcon />
      </Box>
      <Typography variant="h6" component="h2">
        {CHAT_MESSAGES.emptyTitle}
      </Typography>
      <Typography color="text.secondary" sx={{ maxWidth: 420 }}>
        {CHAT_MESSAGES.emptyText}
      </Typography>
      {onViewConversations && (
        <Button variant="contained" onClick={onViewConversations}>
          {CHAT_MESSAGES.viewConversations}
        </Button>
      )}
    </Centered>
  );
}

/** A conversation that could not be opened (unknown user, oneself). */
export function ChatOpenFailed({ message, onBack }: { message: string; onBack: () => void }) {
  return (
    <Centered testId="chat-open-failed">
      <Box aria-hidden sx={{ ...iconSx, color: 'error.main' }}>
        <ErrorIcon />
      </Box>
      <Typography role="alert" sx={{ maxWidth: 420, wordBreak: 'break-word' }}>
        {message}
      </Typography>
      <Button variant="outlined" onClick={onBack}>
        {CHAT_MESSAGES.viewConversations}
      </Button>
    </Centered>
  );
}

type BoundaryProps = { children: ReactNode; onReset?: () => void };

/** An uncaught error in the chat sets the error state to its message; 'Try Again' renders again. */
export class ChatErrorBoundary extends Component<BoundaryProps, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('The chat failed', error, info.componentStack);
  }

  override render() {
    if (this.state.error)
      return (
        <ChatError
          message={this.state.error.message || CHAT_MESSAGES.errorTitle}
          onRetry={() => {
            this.props.onReset?.();
            this.setState({ error: null });
          }}
        />
      );
    return this.props.children;
  }
}
