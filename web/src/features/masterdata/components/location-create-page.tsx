import { Button, Card, Group, Select, SimpleGrid, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useCreateLocation } from '../api/create-location';
import { useLookup } from '../api/list-lookup';
import { useStateOfZip } from '../api/lookup-state';
import { useDebounced, ZIP_LOOKUP_DEBOUNCE_MS } from '../hooks/use-debounced';
import { optionsOf } from './options';

/** The location create page: the location and its address; the state fills itself from the zip code. */
export default function LocationCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const companies = useLookup('company');
  const types = useLookup('locationtype');
  const countries = useLookup('country');
  const create = useCreateLocation();
  const [v, setV] = useState({ name: '', company: '', type: '', street: '', house: '', zip: '', city: '', country: '' });
  const set = (k: keyof typeof v) => (value: string | null) => setV((old) => ({ ...old, [k]: value ?? '' }));
  const countryRows = countries.data ?? [];
  const countryId = v.country || String(countryRows.find((c) => c.country_short === 'DE')?.country_id ?? '');
  const countryShort = String(countryRows.find((c) => String(c.country_id) === countryId)?.country_short ?? 'DE');
  const zip = useDebounced(v.zip.trim(), ZIP_LOOKUP_DEBOUNCE_MS);
  const state = useStateOfZip(zip, countryShort);
  const submit = () =>
    create.mutate(
      {
        location_name: v.name,
        locationtype_id: Number(v.type),
        company_id: Number(v.company),
        address: { address_street: v.street, address_house_number: v.house, city_zip: v.zip.trim(), city_name: v.city, country_id: Number(countryId) },
      },
      {
        onSuccess: (res) => {
          notifySuccess(t('masterdata.location.saved'));
          navigate(`/app/table/location/view/${res.data.location_id}`);
        },
        onError: (e) => notifyError(errorMessage(e)),
      },
    );
  return (
    <Card withBorder maw={900}>
      <Title order={3} mb="md">
        {t('masterdata.location.new')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput required label={t('masterdata.location.name')} value={v.name} onChange={(e) => set('name')(e.currentTarget.value)} />
        <Select required searchable label={t('masterdata.location.company')} data={optionsOf(companies.data, 'company_id', ['company_name'])} value={v.company} onChange={set('company')} />
        <Select required label={t('masterdata.location.type')} data={optionsOf(types.data, 'locationtype_id', ['locationtype_name'])} value={v.type} onChange={set('type')} />
        <Select required label={t('masterdata.address.country')} data={optionsOf(countries.data, 'country_id', ['country_name'])} value={countryId} onChange={set('country')} />
        <TextInput required label={t('masterdata.address.street')} value={v.street} onChange={(e) => set('street')(e.currentTarget.value)} />
        <TextInput required label={t('masterdata.address.house_number')} value={v.house} onChange={(e) => set('house')(e.currentTarget.value)} />
        <TextInput required label={t('masterdata.address.zip')} value={v.zip} onChange={(e) => set('zip')(e.currentTarget.value)}
          error={state.isError && zip ? t('masterdata.address.zip_unknown') : undefined} />
        <TextInput required label={t('masterdata.address.city')} value={v.city} onChange={(e) => set('city')(e.currentTarget.value)}
          placeholder={state.data?.places[0]} />
        <TextInput readOnly label={t('masterdata.address.state')} value={state.data?.state ?? ''} />
      </SimpleGrid>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={() => navigate('/app/table/location')}>
          {t('form.cancel')}
        </Button>
        <Button onClick={submit} loading={create.isPending}>
          {t('general.save')}
        </Button>
      </Group>
    </Card>
  );
}
