import type { ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { FilterButton, HttpError, TopToolbar, useListContext } from 'react-admin';

/** A screen's title as the spec writes it ('All Adoptions', "User's Posts", …). */
export function PageHeading({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        flexWrap: 'wrap',
        gap: 1,
        mt: 2,
        mb: 1,
      }}
    >
      <Typography variant="h5" component="h2" sx={{ flexGrow: 1 }}>
        {children}
      </Typography>
      {actions}
    </Box>
  );
}

/** The error text of a list, in red: the server's message, else the list's fallback. */
export function ListError({ fallback }: { fallback: string }) {
  const { error } = useListContext();
  const text = error instanceof HttpError && error.message ? error.message : fallback;
  return (
    <Typography color="error" role="alert" sx={{ p: 2 }}>
      {text}
    </Typography>
  );
}

/** The empty text of a list ('No adoptions found.', …). */
export function EmptyText({ children }: { children: ReactNode }) {
  return (
    <Alert severity="info" variant="outlined" sx={{ m: 2 }}>
      {children}
    </Alert>
  );
}

/** Lists scroll sideways inside their card on small screens instead of widening the page. */
export const listSx = {
  '& .RaList-content': { overflowX: 'auto' },
  '& .RaList-main': { minWidth: 0 },
} as const;

/**
 * A list's toolbar: the filter button only. react-admin's Export asks for 1,000 rows at once, more than the
 * admin API's largest page (ADMIN_LIMITS.pageSizeMax), so it is left out.
 */
export const FilterActions = () => (
  <TopToolbar>
    <FilterButton />
  </TopToolbar>
);
