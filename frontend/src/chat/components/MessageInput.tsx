import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import SendIcon from '@mui/icons-material/Send';
import { CHAT_LIMITS, CHAT_MESSAGES } from '@pawhaven/contracts';
import { messageTextProblem } from '../format';

/**
 * The message box: Enter sends, Shift+Enter starts a new line, it grows with its text up to 150 px
 * and scrolls beyond. The text goes at once (the message shows optimistically); when sending fails it comes back
 * into an empty box.
 */
export function MessageInput({
  onSend,
  onTyping,
  autoFocus,
  disabled,
}: {
  onSend: (text: string) => Promise<boolean>;
  onTyping: () => void;
  autoFocus?: boolean;
  disabled?: boolean;
}) {
  const [text, setText] = useState('');
  const ref = useRef<HTMLTextAreaElement>(null);
  const tooLong = text.trim().length > CHAT_LIMITS.messageMaxLength;
  const canSend = !disabled && messageTextProblem(text) === null;

  // Grow with the text up to 150 px.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, CHAT_LIMITS.inputMaxHeightPx)}px`;
    el.style.overflowY = el.scrollHeight > CHAT_LIMITS.inputMaxHeightPx ? 'auto' : 'hidden';
  }, [text]);

  const send = () => {
    if (!canSend) return;
    const value = text.trim();
    setText('');
    void onSend(value).then((ok) => {
      if (!ok) setText((current) => (current ? current : value));
    });
    ref.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    send();
  };

  return (
    <Box
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
      sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper', px: { xs: 1, sm: 2 }, py: 1 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'flex-end', gap: 1 }}>
        <Box
          component="textarea"
          ref={ref}
          rows={1}
          value={text}
          autoFocus={autoFocus}
          disabled={disabled}
          placeholder={CHAT_MESSAGES.inputPlaceholder}
          aria-label="Message"
          aria-invalid={tooLong || undefined}
          aria-describedby={tooLong ? 'chat-input-error' : undefined}
          data-testid="message-input"
          onChange={(e) => {
            setText(e.target.value);
            if (e.target.value.trim()) onTyping();
          }}
          onKeyDown={onKeyDown}
          sx={{
            flex: 1,
            minWidth: 0,
            resize: 'none',
            font: 'inherit',
            fontSize: '1rem',
            lineHeight: 1.45,
            color: 'text.primary',
            bgcolor: 'background.default',
            border: 1,
            borderColor: tooLong ? 'error.main' : 'divider',
            borderRadius: 3,
            px: 1.75,
            py: 1.1,
            maxHeight: CHAT_LIMITS.inputMaxHeightPx,
            overflowY: 'hidden',
            outline: 'none',
            '&:focus': { borderColor: 'primary.main', boxShadow: '0 0 0 2px rgba(180, 70, 47, 0.18)' },
          }}
        />
        <IconButton
          type="submit"
          color="primary"
          aria-label="Send message"
          data-testid="send-button"
          disabled={!canSend}
          sx={{
            bgcolor: canSend ? 'primary.main' : 'action.disabledBackground',
            color: 'primary.contrastText',
            width: 44,
            height: 44,
            flexShrink: 0,
            '&:hover': { bgcolor: 'primary.dark' },
            '&.Mui-disabled': { color: 'action.disabled' },
          }}
        >
          <SendIcon fontSize="small" />
        </IconButton>
      </Box>
      {tooLong && (
        <Typography id="chat-input-error" variant="caption" color="error" role="alert" sx={{ pl: 1 }}>
          {CHAT_MESSAGES.textTooLong}
        </Typography>
      )}
    </Box>
  );
}
