import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PlaceholderPage } from '../../components/placeholder-page';

/** /comming-soon (the spelling is part of the contract): names the screen from ?screen= when known. */
export function ComingSoonPage() {
  const { t, i18n } = useTranslation();
  const [search] = useSearchParams();
  const screen = search.get('screen');
  const key = screen ? `menu.${screen}` : null;
  const title = key && i18n.exists(key) ? t(key) : t('status.coming_soon.title');
  return <PlaceholderPage screen={title} />;
}

export default ComingSoonPage;
