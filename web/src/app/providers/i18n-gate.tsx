import { type ReactNode, useEffect, useState } from 'react';
import { FullPageLoader } from '../../components/full-page-loader';
import { applyLanguage, i18n } from '../../lib/i18n';
import { initialLanguage } from '../../lib/language';

/** Shows a full-page loader until the texts of the starting language are there. */
export function I18nGate({ children }: { children: ReactNode }) {
  const [ready, setReady] = useState(() => i18n.hasResourceBundle(i18n.language, 'translation'));
  useEffect(() => {
    if (ready) return;
    let active = true;
    applyLanguage(initialLanguage())
      .catch((error: unknown) => console.error('UI texts could not be loaded', error))
      .finally(() => {
        if (active) setReady(true);
      });
    return () => {
      active = false;
    };
  }, [ready]);
  return ready ? <>{children}</> : <FullPageLoader />;
}
