import { createTheme, type CSSVariablesResolver, localStorageColorSchemeManager, Notification } from '@mantine/core';

/** Where the chosen skin (light or dark) is remembered. */
export const SKIN_STORAGE_KEY = 'portfolio.skin';

export const colorSchemeManager = localStorageColorSchemeManager({ key: SKIN_STORAGE_KEY });

/** The Mantine theme; breakpoints xs..xl are Mantine's (36, 48, 62, 75, 88 em). */
export const theme = createTheme({
  primaryColor: 'indigo',
  // WCAG AA (4.5:1): white on indigo 8 is 5.7:1, indigo 8 links on white too; shade 6 was 4.3:1.
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
  breakpoints: { xs: '36em', sm: '48em', md: '62em', lg: '75em', xl: '88em' },
  components: {
    // A toast's text in Mantine's gray 6 is too faint (3.3:1): the dimmed colour below passes.
    Notification: Notification.extend({ styles: { description: { color: 'var(--mantine-color-dimmed)' } } }),
  },
});

/**
 * Mantine's dimmed text (gray 6 on white: 3.3:1; dark 2 on dark 7: 4.0:1) is
 * too faint for WCAG AA; gray 7 (8.2:1) and dark 1 (7.9:1) are not.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--portfolio-full-bg': `linear-gradient(160deg, ${t.colors.indigo[0]} 0%, ${t.white} 55%)`,
    '--mantine-color-dimmed': t.colors.gray[7],
  },
  dark: {
    '--portfolio-full-bg': `linear-gradient(160deg, ${t.colors.dark[8]} 0%, ${t.colors.dark[7]} 60%)`,
    '--mantine-color-dimmed': t.colors.dark[1],
  },
});
