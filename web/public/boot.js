// Applies the remembered skin and language before the first paint (no light
// flash in dark mode). A file, not an inline script: the Content-Security-Policy
// allows scripts from the app's own origin only (script-src 'self').
try {
  var skin = window.localStorage.getItem('portfolio.skin');
  var scheme = skin === 'dark' || skin === 'light' ? skin : 'light';
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
  var lang = window.localStorage.getItem('portfolio.language');
  if (lang === 'en' || lang === 'de' || lang === 'fr') document.documentElement.lang = lang;
} catch (e) {
  // Storage may be unavailable (private mode): the app applies its defaults.
}
