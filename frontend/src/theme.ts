import { createTheme, type ThemeOptions } from '@mui/material/styles';

/**
 * The single PawHaven theme: warm terracotta and sunny amber on a cream background, with a calm teal for
 * secondary actions. Community pages use `theme`; the react-admin dashboard receives `themeOptions`
 * (react-admin builds its own theme object from MUI options) so both look like one product.
 * Main colours keep at least 4.5:1 contrast against white text and the cream background.
 */
export const palette = {
  terracotta: '#B4462F',
  terracottaLight: '#E07A5F',
  terracottaDark: '#8A3322',
  teal: '#23706A',
  tealLight: '#5FA8A0',
  tealDark: '#164C48',
  amber: '#F2B84B',
  cream: '#FFF8F0',
  sand: '#F6E7D8',
  cocoa: '#3D2C29',
} as const;

export const themeOptions: ThemeOptions = {
  palette: {
    mode: 'light',
    primary: {
      main: palette.terracotta,
      light: palette.terracottaLight,
      dark: palette.terracottaDark,
      contrastText: '#fff',
    },
    secondary: { main: palette.teal, light: palette.tealLight, dark: palette.tealDark, contrastText: '#fff' },
    warning: { main: palette.amber, contrastText: palette.cocoa },
    success: { main: '#2E7D4F' },
    error: { main: '#C62828' },
    background: { default: palette.cream, paper: '#FFFFFF' },
    text: { primary: palette.cocoa, secondary: '#6B5651' },
    divider: 'rgba(61, 44, 41, 0.12)',
  },
  shape: { borderRadius: 12 },
  typography: {
    fontFamily: '"Nunito", "Segoe UI", "Helvetica Neue", Arial, system-ui, sans-serif',
    h1: { fontWeight: 800, letterSpacing: '-0.02em' },
    h2: { fontWeight: 800, letterSpacing: '-0.01em' },
    h3: { fontWeight: 700 },
    h4: { fontWeight: 700 },
    h5: { fontWeight: 700 },
    h6: { fontWeight: 700 },
    button: { textTransform: 'none', fontWeight: 700 },
  },
  components: {
    MuiButton: {
      defaultProps: { disableElevation: true },
      styleOverrides: { root: { borderRadius: 999, paddingInline: 18 } },
    },
    MuiPaper: { styleOverrides: { rounded: { borderRadius: 16 } } },
    MuiCard: {
      defaultProps: { elevation: 0 },
      styleOverrides: { root: { border: '1px solid rgba(61, 44, 41, 0.10)' } },
    },
    MuiTextField: { defaultProps: { fullWidth: true, margin: 'normal' } },
    MuiAppBar: { defaultProps: { elevation: 0, color: 'inherit' } },
    MuiLink: { defaultProps: { underline: 'hover' } },
  },
};

export const theme = createTheme(themeOptions);
