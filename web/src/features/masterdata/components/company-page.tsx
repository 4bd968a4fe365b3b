import { Paper, Select, SimpleGrid, Stack, Tabs, TextInput } from '@mantine/core';
import { IconReceiptTax } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useAbility } from '../../../lib/ability-context';
import { notifySuccess } from '../../../lib/notify';
import type { Row } from '../../../lib/table-definition';
import { type AddressValues, addressInput, addressValues, isBlankAddress } from '../api/address';
import { useCreateCompany } from '../api/create-company';
import { type CompanyAnswer, useCompany } from '../api/get-company';
import { useEntityDefinition } from '../api/get-definition';
import { useLookup } from '../api/list-lookup';
import { useUpdateCompany } from '../api/update-company';
import { useEditParam } from '../hooks/use-edit-param';
import { AddressFields, resolveCountry } from './address-fields';
import { FormFooter, useFormState } from './form-state';
import { optionsOf, withStored } from './options';
import { LoadState } from './load-state';
import { NewRecordPage, PageHeader } from './page-header';
import type { RelationTabsSlot } from './relation-slot';
import TaxRatesPanel from './tax-rates-panel';

/** The generic relation tab the tax rates tab replaces. */
export const TAX_RATES_RELATION = 'company_tax_rates_rel';

/**
 * /app/table/company/view/{id} (edit with ?edit=true): the company with its
 * address (one PUT /companies/), the tax rates tab for administrators and the
 * generic relation tabs.
 */
export default function CompanyPage({ relationTabs: RelationTabs }: { relationTabs?: RelationTabsSlot }) {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const companyId = Number(id);
  const ability = useAbility();
  const company = useCompany(companyId);
  const definition = useEntityDefinition('company');
  const [editing, setEdit] = useEditParam();
  // Bumped by a reload after a stale save: the form starts again from the stored record.
  const [reloads, setReloads] = useState(0);
  const isAdmin = ability.can('manage', 'all');

  if (!id) return <CompanyCreatePage />;
  if (!company.isSuccess) return <LoadState query={company} />;
  const title = String(company.data.data.company_name ?? `#${id}`);
  const relations = (definition.data?.relations ?? []).filter((r) => r.api !== TAX_RATES_RELATION);
  return (
    <Stack gap="md" maw={1200}>
      <PageHeader table="company" listLabel={t('masterdata.company.list')} title={title}
        onEdit={!editing && ability.can('update', 'company') ? () => setEdit(true) : undefined} />
      <Paper withBorder p="lg" radius="md">
        <CompanyForm key={`${editing}-${String(company.data.data.row_version)}-${reloads}`} answer={company.data} editing={editing}
          onDone={() => setEdit(false)} onReload={() => void company.refetch().then(() => setReloads((n) => n + 1))} />
      </Paper>
      {isAdmin && (
        <Paper withBorder radius="md" p="sm">
          <Tabs defaultValue="taxrates">
            <Tabs.List>
              <Tabs.Tab value="taxrates" leftSection={<IconReceiptTax size={14} />}>
                {t('masterdata.tax_rates.title')}
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="taxrates" pt="sm">
              <TaxRatesPanel companyId={companyId} />
            </Tabs.Panel>
          </Tabs>
        </Paper>
      )}
      {RelationTabs && definition.data && <RelationTabs table="company" id={id} def={definition.data} relations={relations} />}
    </Stack>
  );
}

/** /app/table/company/create: the empty company form; one POST /companies/ writes company and address. */
function CompanyCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <NewRecordPage table="company" listLabel={t('masterdata.company.list')} title={t('masterdata.company.new')}>
        <CompanyForm answer={null} editing onDone={() => navigate('/app/table/company')}
          onCreated={(newId) => navigate(`/app/table/company/view/${newId}`)} />
    </NewRecordPage>
  );
}

interface CompanyValues {
  customergroup: string;
  name: string;
  shortname: string;
  buchungskreis: string;
}

function companyValues(row: Row | undefined): CompanyValues {
  if (!row) return { customergroup: '', name: '', shortname: '', buchungskreis: '' };
  return {
    customergroup: row.customergroup_id != null ? String(row.customergroup_id) : '',
    name: String(row.company_name ?? ''),
    shortname: String(row.company_shortname ?? ''),
    buchungskreis: String(row.company_buchungskreis ?? ''),
  };
}

interface CompanyFormProps {
  /** The stored company; null: a new one (onCreated gets its id). */
  answer: CompanyAnswer | null;
  editing: boolean;
  onDone: () => void;
  onCreated?: (id: number) => void;
  /** Loads the stored company again (after a 409: someone else changed it). */
  onReload?: () => void;
}

/**
 * The company's fields and its address; read-only unless editing. Cancelling
 * or leaving with changes asks first; a stale save (409) offers to reload.
 */
function CompanyForm({ answer, editing, onDone, onCreated, onReload }: CompanyFormProps) {
  const { t } = useTranslation();
  const groups = useLookup('customergroup');
  const countries = useLookup('country');
  const save = useUpdateCompany();
  const create = useCreateCompany();
  const form = useFormState(() => ({ company: companyValues(answer?.data), address: addressValues(answer?.address) }),
    t('masterdata.company.save_error'));
  const { errors, setErrors } = form;
  const { company: v, address } = form.v;
  const set = (k: keyof CompanyValues) => (value: string | null) => form.setV((old) => ({ ...old, company: { ...old.company, [k]: value ?? '' } }));
  const setAddress = (next: AddressValues) => form.setV((old) => ({ ...old, address: next }));
  const groupOptions = withStored(optionsOf(groups.data, 'customergroup_id', ['customergroup_name']), v.customergroup,
    answer?.data.customergroup_id__label);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    const country = resolveCountry(countries.data, address.country, address.countryName);
    const fields = {
      customergroup_id: Number(v.customergroup),
      company_name: v.name.trim(),
      company_shortname: v.shortname.trim(),
      company_buchungskreis: v.buchungskreis.trim(),
      ...(isBlankAddress(address) && !answer?.address ? {} : { address: addressInput(address, Number(country.id), answer?.address) }),
    };
    const onError = form.onSaveError;
    if (!answer) {
      create.mutate(fields, {
        onSuccess: (created) => {
          notifySuccess(t('masterdata.company.created'));
          form.release(() => onCreated?.(Number(created.data.company_id)));
        },
        onError,
      });
      return;
    }
    save.mutate(
      { company_id: Number(answer.data.company_id), row_version: Number(answer.data.row_version ?? 0), ...fields },
      {
        onSuccess: () => {
          notifySuccess(t('masterdata.company.saved'));
          form.release(onDone);
        },
        onError,
      },
    );
  };
  const readOnly = !editing;
  return (
    <form onSubmit={submit} aria-label={t('masterdata.company.form')}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput required readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.company.name')} value={v.name}
            onChange={(e) => set('name')(e.currentTarget.value)} error={errors.company_name} />
          <TextInput required readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.company.shortname')} value={v.shortname}
            onChange={(e) => set('shortname')(e.currentTarget.value)} error={errors.company_shortname} />
          <Select required readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} searchable label={t('masterdata.company.customergroup')} data={groupOptions}
            value={v.customergroup} onChange={set('customergroup')} error={errors.customergroup_id} />
          <TextInput readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.company.buchungskreis')} value={v.buchungskreis}
            onChange={(e) => set('buchungskreis')(e.currentTarget.value)} error={errors.company_buchungskreis} />
        </SimpleGrid>
        <AddressFields value={address} onChange={setAddress} countries={countries.data} errors={errors}
          storedState={String(answer?.address?.state ?? '')} storedZip={String(answer?.address?.city_zip ?? '')} disabled={readOnly} optional />
        <FormFooter form={form} editing={editing} saving={save.isPending || create.isPending} onDone={onDone} onReload={onReload} />
      </Stack>
    </form>
  );
}
