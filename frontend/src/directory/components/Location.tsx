import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import PlaceIcon from '@mui/icons-material/PlaceOutlined';
import { visuallyHidden } from './visuallyHidden';

/** A clinic's location with its pin, on the card and in the details. */
export function Location({ location }: { location: string }) {
  return (
    <Stack direction="row" spacing={0.75} sx={{ alignItems: 'flex-start', color: 'text.secondary' }}>
      <PlaceIcon fontSize="small" aria-hidden sx={{ mt: '2px' }} />
      <Typography sx={{ overflowWrap: 'anywhere' }}>
        <Box component="span" sx={visuallyHidden}>
          Location:{' '}
        </Box>
        {location}
      </Typography>
    </Stack>
  );
}
