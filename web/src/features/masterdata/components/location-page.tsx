import { Button, Group, Paper, Select, SimpleGrid, Stack, Tabs, TextInput } from '@mantine/core';
import { IconBuildingCommunity } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { NumberTextInput } from '../../../components/form/number-text-input';
import { useAbility } from '../../../lib/ability-context';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { DECIMAL_PLACES } from '../../../lib/numbers';
import { UnparsedInput } from '../../../lib/validation';
import { type AddressValues, addressInput, addressValues } from '../api/address';
import { useEntityDefinition } from '../api/get-definition';
import { type LocationAnswer, useLocation } from '../api/get-location';
import { useLookup } from '../api/list-lookup';
import { useUpdateLocation } from '../api/update-location';
import { useEditParam } from '../hooks/use-edit-param';
import { AddressFields, resolveCountry } from './address-fields';
import { LocationPartnersPanel } from './location-partners-panel';
import { optionsOf } from './options';
import { LoadState } from './load-state';
import { PageHeader } from './page-header';
import type { RelationTabsSlot } from './relation-slot';

/** The generic relation tab the partner companies over time replace. */
export const PARTNERS_RELATION = 'location_partnercompany_rel';

/**
 * /app/table/location/view/{id} (edit with ?edit=true): the location with its
 * address (one PUT /locations), its partner companies over time and the
 * generic relation tabs.
 */
export default function LocationPage({ relationTabs: RelationTabs }: { relationTabs?: RelationTabsSlot }) {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const locationId = Number(id);
  const ability = useAbility();
  const location = useLocation(locationId);
  const definition = useEntityDefinition('location');
  const [editing, setEdit] = useEditParam();
  const canUpdate = ability.can('update', 'location');

  if (!location.isSuccess) return <LoadState query={location} />;
  const title = String(location.data.data.location_name ?? `#${id}`);
  const relations = (definition.data?.relations ?? []).filter((r) => r.api !== PARTNERS_RELATION);
  return (
    <Stack gap="md" maw={1200}>
      <PageHeader table="location" listLabel={t('masterdata.location.list')} title={title}
        onEdit={!editing && canUpdate ? () => setEdit(true) : undefined} />
      <Paper withBorder p="lg" radius="md">
        <LocationForm key={`${editing}-${String(location.data.data.row_version)}`} answer={location.data} editing={editing} onDone={() => setEdit(false)} />
      </Paper>
      <Paper withBorder radius="md" p="sm">
        <Tabs defaultValue="partners">
          <Tabs.List>
            <Tabs.Tab value="partners" leftSection={<IconBuildingCommunity size={14} />}>
              {t('masterdata.location_partners.title')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="partners" pt="sm">
            <LocationPartnersPanel locationId={locationId} canAdd={canUpdate} />
          </Tabs.Panel>
        </Tabs>
      </Paper>
      {RelationTabs && definition.data && <RelationTabs table="location" id={id} def={definition.data} relations={relations} />}
    </Stack>
  );
}

function LocationForm({ answer, editing, onDone }: { answer: LocationAnswer; editing: boolean; onDone: () => void }) {
  const { t } = useTranslation();
  const companies = useLookup('company');
  const types = useLookup('locationtype');
  const countries = useLookup('country');
  const save = useUpdateLocation();
  const row = answer.data;
  const [v, setV] = useState({
    name: String(row.location_name ?? ''),
    company: row.company_id != null ? String(row.company_id) : '',
    type: row.locationtype_id != null ? String(row.locationtype_id) : '',
    // A number, null, or a typed text that is no number (kept as typed, refused on saving).
    area: (row.location_total_area ?? null) as unknown,
    start: String(row.location_start_date ?? ''),
  });
  const [address, setAddress] = useState<AddressValues>(() => addressValues(answer.address));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (k: keyof typeof v) => (value: string | number | null) => setV((old) => ({ ...old, [k]: value ?? '' }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (v.area instanceof UnparsedInput) return setErrors({ location_total_area: t(v.area.messageKey, v.area.vars) });
    setErrors({});
    const country = resolveCountry(countries.data, address.country, address.countryName);
    save.mutate(
      {
        location_id: Number(row.location_id),
        row_version: Number(row.row_version ?? 0),
        location_name: v.name.trim(),
        locationtype_id: Number(v.type),
        company_id: Number(v.company),
        location_total_area: v.area === null || v.area === '' ? null : Number(v.area),
        location_start_date: v.start || null,
        address: addressInput(address, Number(country.id), answer.address),
      },
      {
        onSuccess: () => {
          notifySuccess(t('masterdata.location.saved'));
          onDone();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 422) setErrors(error.fieldErrors());
          notifyError(errorMessage(error));
        },
      },
    );
  };
  const readOnly = !editing;
  const companyOptions = optionsOf(companies.data, 'company_id', ['company_name']);
  if (v.company && !companyOptions.some((o) => o.value === v.company)) {
    companyOptions.push({ value: v.company, label: String(row.company_id__label ?? v.company) });
  }
  return (
    <form onSubmit={submit} aria-label={t('masterdata.location.form')}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput required readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.location.name')} value={v.name}
            onChange={(e) => set('name')(e.currentTarget.value)} error={errors.location_name} />
          <Select required readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} searchable label={t('masterdata.location.company')} data={companyOptions}
            value={v.company} onChange={set('company')} error={errors.company_id} />
          <Select required readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.location.type')}
            data={optionsOf(types.data, 'locationtype_id', ['locationtype_name'])} value={v.type} onChange={set('type')} error={errors.locationtype_id} />
          <NumberTextInput readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.location.total_area')} value={v.area}
            onChange={(area) => setV((old) => ({ ...old, area }))} decimals={DECIMAL_PLACES} minDecimals={2} error={errors.location_total_area} />
          <TextInput readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} type="date" label={t('masterdata.location.start_date')} value={v.start}
            onChange={(e) => set('start')(e.currentTarget.value)} error={errors.location_start_date} />
        </SimpleGrid>
        <AddressFields value={address} onChange={setAddress} countries={countries.data} errors={errors}
          storedState={String(answer.address?.state ?? row.state ?? '')} storedZip={String(answer.address?.city_zip ?? '')} disabled={readOnly} />
        {editing && (
          <Group justify="flex-end">
            <Button variant="default" onClick={onDone}>
              {t('form.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('general.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
