import { Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { NumberTextInput } from '../../../components/form/number-text-input';
import { useAbility } from '../../../lib/ability-context';
import { notifySuccess } from '../../../lib/notify';
import { DECIMAL_PLACES } from '../../../lib/numbers';
import type { Row } from '../../../lib/table-definition';
import { UnparsedInput } from '../../../lib/validation';
import { type AreaInput, useArea, useSaveArea } from '../api/area';
import { useEntityDefinition } from '../api/get-definition';
import { useLookup } from '../api/list-lookup';
import { useEditParam } from '../hooks/use-edit-param';
import { FormFooter, useFormState } from './form-state';
import { LoadState } from './load-state';
import { optionsOf, withStored } from './options';
import { NewRecordPage, PageHeader } from './page-header';
import type { RelationTabsSlot } from './relation-slot';

/**
 * /app/table/area/view/{id} (edit with ?edit=true) and /app/table/area/create:
 * an area of a location with its usage period, written through the generic
 * table API; the relation tabs (contracts, points of sale, service objects) below.
 */
export default function AreaPage({ relationTabs: RelationTabs }: { relationTabs?: RelationTabsSlot }) {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const ability = useAbility();
  const area = useArea(Number(id));
  const definition = useEntityDefinition('area');
  const [editing, setEdit] = useEditParam();
  // Bumped by a reload after a stale save: the form starts again from the stored record.
  const [reloads, setReloads] = useState(0);

  if (!id) {
    return (
      <NewRecordPage table="area" listLabel={t('masterdata.area.list')} title={t('masterdata.area.new')}>
          <AreaForm row={null} editing onDone={() => navigate('/app/table/area')}
            onCreated={(newId) => navigate(`/app/table/area/view/${newId}`)} />
      </NewRecordPage>
    );
  }
  if (!area.isSuccess) return <LoadState query={area} />;
  const title = String(area.data.area_name ?? `#${id}`);
  return (
    <Stack gap="md" maw={1200}>
      <PageHeader table="area" listLabel={t('masterdata.area.list')} title={title}
        onEdit={!editing && ability.can('update', 'area') ? () => setEdit(true) : undefined} />
      <Paper withBorder p="lg" radius="md">
        <AreaForm key={`${editing}-${String(area.data.row_version)}-${reloads}`} row={area.data} editing={editing} onDone={() => setEdit(false)}
          onReload={() => void area.refetch().then(() => setReloads((n) => n + 1))} />
      </Paper>
      {RelationTabs && definition.data && <RelationTabs table="area" id={id} def={definition.data} relations={definition.data.relations ?? []} />}
    </Stack>
  );
}

interface AreaValues {
  location: string;
  areatype: string;
  name: string;
  external: string;
  /** A number, null, or a typed text that is no number (kept as typed, refused on saving). */
  space: unknown;
  usagetype: string;
  from: string;
  to: string;
}

function areaValues(row: Row | null): AreaValues {
  const id = (k: string) => (row?.[k] != null ? String(row[k]) : '');
  return {
    location: id('location_id'),
    areatype: id('areatype_id'),
    name: String(row?.area_name ?? ''),
    external: String(row?.area_name_external ?? ''),
    space: row?.area_space_value ?? null,
    usagetype: id('usagetype_id'),
    from: String(row?.area_usage_valid_from ?? ''),
    to: String(row?.area_usage_valid_to ?? ''),
  };
}

interface AreaFormProps {
  /** The stored area; null: a new one (onCreated gets its id). */
  row: Row | null;
  editing: boolean;
  onDone: () => void;
  onCreated?: (id: number) => void;
  /** Loads the stored area again (after a 409: someone else changed it). */
  onReload?: () => void;
}

/**
 * The area's fields; read-only unless editing. Cancelling or leaving with
 * changed fields asks first; a stale save (409) offers to reload the area.
 */
function AreaForm({ row, editing, onDone, onCreated, onReload }: AreaFormProps) {
  const { t } = useTranslation();
  const locations = useLookup('location');
  const areatypes = useLookup('areatype');
  const usagetypes = useLookup('usagetype');
  const save = useSaveArea();
  const form = useFormState(() => areaValues(row), t('masterdata.area.save_error'));
  const { v, setV, errors, setErrors } = form;
  const set = (k: keyof AreaValues) => (value: string | number | null) => setV((old) => ({ ...old, [k]: value ?? '' }));
  const toBeforeFrom = Boolean(v.from && v.to && v.to < v.from);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (v.space instanceof UnparsedInput) return setErrors({ area_space_value: t(v.space.messageKey, v.space.vars) });
    setErrors({});
    const input: AreaInput = {
      location_id: Number(v.location),
      areatype_id: Number(v.areatype),
      area_name: v.name.trim(),
      area_name_external: v.external.trim() || null,
      area_space_value: Number(v.space),
      usagetype_id: Number(v.usagetype),
      area_usage_valid_from: v.from,
      area_usage_valid_to: v.to || null,
    };
    save.mutate(
      { id: row ? Number(row.area_id) : undefined, rowVersion: row ? Number(row.row_version ?? 0) : undefined, input },
      {
        onSuccess: (answer) => {
          notifySuccess(t('masterdata.area.saved'));
          form.release(() => (row ? onDone() : onCreated?.(Number(answer.data.area_id))));
        },
        onError: form.onSaveError,
      },
    );
  };
  const readOnly = !editing;
  return (
    <form onSubmit={submit} aria-label={t('masterdata.area.form')}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select required searchable readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.area.location')} value={v.location} onChange={set('location')}
            data={withStored(optionsOf(locations.data, 'location_id', ['location_name']), v.location, row?.location_id__label)}
            error={errors.location_id} />
          <Select required readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.area.type')} value={v.areatype} onChange={set('areatype')}
            data={withStored(optionsOf(areatypes.data, 'areatype_id', ['areatype_name']), v.areatype, row?.areatype_id__label)}
            error={errors.areatype_id} />
          <TextInput required readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.area.name')} value={v.name}
            onChange={(e) => set('name')(e.currentTarget.value)} error={errors.area_name} />
          <TextInput readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.area.name_external')} value={v.external}
            onChange={(e) => set('external')(e.currentTarget.value)} error={errors.area_name_external} />
          <NumberTextInput required readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.area.space')} value={v.space}
            onChange={(space) => setV((old) => ({ ...old, space }))} decimals={DECIMAL_PLACES} minDecimals={2} rightSection={<Text size="sm" c="dimmed">m²</Text>} error={errors.area_space_value} />
          <Select required readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.area.usagetype')} value={v.usagetype} onChange={set('usagetype')}
            data={withStored(optionsOf(usagetypes.data, 'usagetype_id', ['usagetype_name']), v.usagetype, row?.usagetype_id__label)}
            error={errors.usagetype_id} />
          <TextInput required readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} type="date" label={t('masterdata.area.valid_from')} value={v.from}
            onChange={(e) => set('from')(e.currentTarget.value)} error={errors.area_usage_valid_from} />
          <TextInput readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} type="date" label={t('masterdata.area.valid_to')} value={v.to} min={v.from || undefined}
            onChange={(e) => set('to')(e.currentTarget.value)}
            error={errors.area_usage_valid_to ?? (toBeforeFrom ? t('masterdata.area.to_before_from') : undefined)} />
        </SimpleGrid>
        <FormFooter form={form} editing={editing} saving={save.isPending} saveDisabled={toBeforeFrom} onDone={onDone} onReload={onReload} />
      </Stack>
    </form>
  );
}
