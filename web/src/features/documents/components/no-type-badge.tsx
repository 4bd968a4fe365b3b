import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * "No type yet" next to a document uploaded without a type (decision
 * 0065): it is neither stamped nor signed until it has one.
 */
export function NoTypeBadge() {
  const { t } = useTranslation();
  return (
    <Badge size="xs" variant="light" color="gray" style={{ flexShrink: 0 }}>
      {t('documents.no_type')}
    </Badge>
  );
}
