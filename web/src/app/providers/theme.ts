import { createTheme, type CSSVariablesResolver, localStorageColorSchemeManager } from '@mantine/core';

/** Where the chosen skin (light or dark) is remembered. */
export const SKIN_STORAGE_KEY = 'portfolio.skin';

export const colorSchemeManager = localStorageColorSchemeManager({ key: SKIN_STORAGE_KEY });

/** The Mantine theme; breakpoints xs..xl are Mantine's (36, 48, 62, 75, 88 em). */
export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
  breakpoints: { xs: '36em', sm: '48em', md: '62em', lg: '75em', xl: '88em' },
});

export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: { '--portfolio-full-bg': `linear-gradient(160deg, ${t.colors.indigo[0]} 0%, ${t.white} 55%)` },
  dark: { '--portfolio-full-bg': `linear-gradient(160deg, ${t.colors.dark[8]} 0%, ${t.colors.dark[7]} 60%)` },
});
