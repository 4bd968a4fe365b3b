import { Alert, Button, Group, Loader, Pagination, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { formatDate } from '../../../lib/dates';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useLookup } from '../api/list-lookup';
import { useAddLocationPartner, useLocationPartners } from '../api/location-partners';
import { optionsOf } from './options';

/** The partner companies of a location over time (ten to a page) and, for who may change the location, a form to add one. */
export function LocationPartnersPanel({ locationId, canAdd }: { locationId: number; canAdd: boolean }) {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const partners = useLocationPartners(locationId, page);
  const rows = partners.data?.data ?? [];
  const pages = partners.data?.links.pagination.last_page ?? 1;
  return (
    <Stack gap="sm" data-testid="location-partners">
      {partners.isPending ? (
        <Loader size="sm" aria-label={t('general.loading')} />
      ) : partners.isError ? (
        <Alert color="red">{t('masterdata.load_error')}</Alert>
      ) : rows.length === 0 ? (
        <Text c="dimmed" data-testid="empty-state">
          {t('masterdata.location_partners.empty')}
        </Text>
      ) : (
        <Table striped aria-label={t('masterdata.location_partners.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('masterdata.location_partners.partner')}</Table.Th>
              <Table.Th>{t('masterdata.location_partners.type')}</Table.Th>
              <Table.Th>{t('masterdata.location_partners.valid_from')}</Table.Th>
              <Table.Th>{t('masterdata.location_partners.valid_to')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r, i) => (
              <Table.Tr key={String(r.location_partnercompany_id ?? i)}>
                <Table.Td>{String(r.partnercompany_name ?? r.partnercompany_id__label ?? r.partnercompany_id ?? '')}</Table.Td>
                <Table.Td>{String(r.partnertype_id__label ?? r.partnertype_name ?? r.partnertype_id ?? '')}</Table.Td>
                <Table.Td>{formatDate(String(r.valid_from ?? ''), i18n.language)}</Table.Td>
                <Table.Td>{r.valid_to ? formatDate(String(r.valid_to), i18n.language) : '–'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {pages > 1 && <Pagination size="sm" total={pages} value={page} onChange={setPage} />}
      {canAdd && <AddPartnerForm locationId={locationId} />}
    </Stack>
  );
}

function AddPartnerForm({ locationId }: { locationId: number }) {
  const { t } = useTranslation();
  const partnerCompanies = useLookup('partnercompany');
  const partnerTypes = useLookup('partnertype');
  const add = useAddLocationPartner(locationId);
  const empty = { partner: '', type: '', from: '', to: '' };
  const [v, setV] = useState(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (k: keyof typeof v) => (value: string | null) => setV((old) => ({ ...old, [k]: value ?? '' }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    add.mutate(
      {
        location_id: locationId,
        partnercompany_id: Number(v.partner),
        partnertype_id: Number(v.type),
        valid_from: v.from,
        ...(v.to ? { valid_to: v.to } : {}),
      },
      {
        onSuccess: () => {
          notifySuccess(t('masterdata.location_partners.saved'));
          setV(empty);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 422) setErrors(error.fieldErrors());
          else notifyError(errorMessage(error));
        },
      },
    );
  };
  return (
    <form onSubmit={submit} aria-label={t('masterdata.location_partners.add')}>
      <Group align="flex-start" wrap="wrap">
        <Select required searchable label={t('masterdata.location_partners.partner')} w={240}
          data={optionsOf(partnerCompanies.data, 'partnercompany_id', ['partnercompany_name'])} value={v.partner} onChange={set('partner')}
          error={errors.partnercompany_id} />
        <Select required label={t('masterdata.location_partners.type')} w={200}
          data={optionsOf(partnerTypes.data, 'partnertype_id', ['partnertype_name'])} value={v.type} onChange={set('type')} error={errors.partnertype_id} />
        <TextInput required type="date" label={t('masterdata.location_partners.valid_from')} value={v.from}
          onChange={(e) => set('from')(e.currentTarget.value)} error={errors.valid_from} />
        <TextInput type="date" label={t('masterdata.location_partners.valid_to')} value={v.to}
          onChange={(e) => set('to')(e.currentTarget.value)} error={errors.valid_to} />
        <Button type="submit" mt={25} loading={add.isPending} disabled={!v.partner || !v.type || !v.from}>
          {t('masterdata.location_partners.add')}
        </Button>
      </Group>
    </form>
  );
}
