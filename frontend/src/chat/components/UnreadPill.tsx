import Box from '@mui/material/Box';

/**
 * The unread count's pill (a conversation in the list, the Inbox link), already formatted ('9+' above 9). Hidden from
 * screen readers: the element it sits in says the count in words.
 */
export function UnreadPill({ text, testId }: { text: string; testId: string }) {
  return (
    <Box
      component="span"
      aria-hidden
      data-testid={testId}
      sx={{
        flexShrink: 0,
        minWidth: 22,
        height: 22,
        px: 0.75,
        borderRadius: 11,
        bgcolor: 'primary.main',
        color: 'primary.contrastText',
        fontSize: 12,
        fontWeight: 800,
        display: 'inline-flex',
        alignItems: 'center',
        justifyContent: 'center',
        verticalAlign: 'middle',
      }}
    >
      {text}
    </Box>
  );
}
