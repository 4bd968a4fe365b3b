import { Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useAbility } from '../../../lib/ability-context';
import { notifySuccess } from '../../../lib/notify';
import { type ContactAnswer, useContact } from '../api/get-contact';
import { useEntityDefinition } from '../api/get-definition';
import { useLookup } from '../api/list-lookup';
import { useSaveContact } from '../api/save-contact';
import { useEditParam } from '../hooks/use-edit-param';
import { type ContactValues, type DetailsValues, contactFormValues, contactInput, contactShortname } from '../model/contact-form';
import { AddressFields, resolveCountry } from './address-fields';
import { FormFooter, useFormState } from './form-state';
import { LoadState } from './load-state';
import { optionsOf, withStored } from './options';
import { NewRecordPage, PageHeader } from './page-header';
import type { RelationTabsSlot } from './relation-slot';

/**
 * /app/table/contactperson/view/{id} (edit with ?edit=true) and
 * /app/table/contactperson/create: a contact person with its contact details
 * and address, written in one POST or PUT /contacts; the generic relation
 * tabs below.
 */
export default function ContactPage({ relationTabs: RelationTabs }: { relationTabs?: RelationTabsSlot }) {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const ability = useAbility();
  const contact = useContact(Number(id));
  const definition = useEntityDefinition('contactperson');
  const [editing, setEdit] = useEditParam();
  // Bumped by a reload after a stale save: the form starts again from the stored record.
  const [reloads, setReloads] = useState(0);

  if (!id) return <ContactCreatePage />;
  if (!contact.isSuccess) return <LoadState query={contact} />;
  const row = contact.data.data;
  const title = `${String(row.contactperson_firstname ?? '')} ${String(row.contactperson_lastname ?? '')}`.trim() || `#${id}`;
  const relations = definition.data?.relations ?? [];
  return (
    <Stack gap="md" maw={1200}>
      <PageHeader table="contactperson" listLabel={t('masterdata.contact.list')} title={title}
        onEdit={!editing && ability.can('update', 'contactperson') ? () => setEdit(true) : undefined} />
      <Paper withBorder p="lg" radius="md">
        <ContactForm key={`${editing}-${String(row.row_version)}-${reloads}`} answer={contact.data} editing={editing} onDone={() => setEdit(false)}
          onReload={() => void contact.refetch().then(() => setReloads((n) => n + 1))} />
      </Paper>
      {RelationTabs && definition.data && relations.length > 0 && (
        <RelationTabs table="contactperson" id={id} def={definition.data} relations={relations} />
      )}
    </Stack>
  );
}

/** /app/table/contactperson/create: the empty form; one POST /contacts writes contact person, details and address. */
function ContactCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <NewRecordPage table="contactperson" listLabel={t('masterdata.contact.list')} title={t('masterdata.contact.new')}>
        <ContactForm answer={null} editing onDone={() => navigate('/app/table/contactperson')}
          onCreated={(newId) => navigate(`/app/table/contactperson/view/${newId}`)} />
    </NewRecordPage>
  );
}

interface ContactFormProps {
  /** The stored contact person; null: a new one (onCreated gets its id). */
  answer: ContactAnswer | null;
  editing: boolean;
  onDone: () => void;
  onCreated?: (id: number) => void;
  /** Loads the stored contact person again (after a 409: someone else changed it). */
  onReload?: () => void;
}

/**
 * The contact person's fields, contact details and address; read-only unless
 * editing. Cancelling or leaving with changes asks first; a stale save (409)
 * offers to reload.
 */
function ContactForm({ answer, editing, onDone, onCreated, onReload }: ContactFormProps) {
  const { t } = useTranslation();
  const salutations = useLookup('contactsalutation');
  const titles = useLookup('contacttitle');
  const companies = useLookup('company');
  const partners = useLookup('partnercompany');
  const countries = useLookup('country');
  const save = useSaveContact();
  const form = useFormState(() => contactFormValues(answer), t('masterdata.contact.save_error'));
  const { v, setV, errors, setErrors } = form;
  const row = answer?.data;
  const set = (k: keyof ContactValues) => (value: string | null) => setV((old) => ({ ...old, contact: { ...old.contact, [k]: value ?? '' } }));
  const setDetail = (k: keyof DetailsValues) => (value: string) => setV((old) => ({ ...old, details: { ...old.details, [k]: value } }));
  const detailError = (f: string) => errors[`contactdetails.${f}`];

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    const country = resolveCountry(countries.data, v.address.country, v.address.countryName);
    save.mutate(contactInput(v, Number(country.id), answer), {
      onSuccess: (saved) => {
        notifySuccess(t(answer ? 'masterdata.contact.saved' : 'masterdata.contact.created'));
        form.release(() => (answer ? onDone() : onCreated?.(Number(saved.data.contactperson_id))));
      },
      onError: form.onSaveError,
    });
  };
  const readOnly = !editing;
  const shortname = editing ? contactShortname(v.contact.firstname, v.contact.lastname) : String(row?.contactperson_shortname ?? '');
  return (
    <form onSubmit={submit} aria-label={t('masterdata.contact.form')}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select required readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.contact.salutation')} value={v.contact.salutation} onChange={set('salutation')}
            data={withStored(optionsOf(salutations.data, 'contactsalutation_id', ['contactsalutation_name']), v.contact.salutation, row?.contactsalutation_id__label)}
            error={errors.contactsalutation_id} />
          <Select clearable readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.contact.title')} value={v.contact.title || null} onChange={set('title')}
            data={withStored(optionsOf(titles.data, 'contacttitle_id', ['contacttitle_name']), v.contact.title, row?.contacttitle_id__label)}
            error={errors.contacttitle_id} />
          <TextInput required readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.contact.firstname')} value={v.contact.firstname}
            onChange={(e) => set('firstname')(e.currentTarget.value)} error={errors.contactperson_firstname} />
          <TextInput required readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.contact.lastname')} value={v.contact.lastname}
            onChange={(e) => set('lastname')(e.currentTarget.value)} error={errors.contactperson_lastname} />
          <TextInput readOnly variant="filled" label={t('masterdata.contact.shortname')} description={editing ? t('masterdata.contact.shortname_hint') : undefined}
            value={shortname} />
          <TextInput readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.contact.function')} value={v.contact.function}
            onChange={(e) => set('function')(e.currentTarget.value)} error={errors.contactperson_function} />
          <TextInput readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.contact.department')} value={v.contact.department}
            onChange={(e) => set('department')(e.currentTarget.value)} error={errors.contactperson_department} />
          <Select clearable searchable readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.contact.company')} value={v.contact.company || null} onChange={set('company')}
            data={withStored(optionsOf(companies.data, 'company_id', ['company_name']), v.contact.company, row?.company_id__label)}
            error={errors.company_id} />
          <Select clearable searchable readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.contact.partnercompany')} value={v.contact.partnercompany || null}
            onChange={set('partnercompany')}
            data={withStored(optionsOf(partners.data, 'partnercompany_id', ['partnercompany_name']), v.contact.partnercompany, row?.partnercompany_id__label)}
            error={errors.partnercompany_id} />
        </SimpleGrid>

        <Title order={2} size="h4">{t('masterdata.contact.details')}</Title>
        {readOnly && !answer?.contactdetails ? (
          <Text c="dimmed" data-testid="empty-state">{t('masterdata.contact.details_empty')}</Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput type="email" readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.contact.email')} value={v.details.email}
              onChange={(e) => setDetail('email')(e.currentTarget.value)} error={detailError('contactdetails_email')} />
            <TextInput readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.contact.phone')} value={v.details.phone}
              onChange={(e) => setDetail('phone')(e.currentTarget.value)} error={detailError('contactdetails_phone')} />
            <TextInput readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.contact.mobile')} value={v.details.mobile}
              onChange={(e) => setDetail('mobile')(e.currentTarget.value)} error={detailError('contactdetails_mobile')} />
            <TextInput readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.contact.fax')} value={v.details.fax}
              onChange={(e) => setDetail('fax')(e.currentTarget.value)} error={detailError('contactdetails_fax')} />
            <TextInput readOnly={readOnly} variant={readOnly ? 'filled' : 'default'} label={t('masterdata.contact.website')} value={v.details.website}
              onChange={(e) => setDetail('website')(e.currentTarget.value)} error={detailError('contactdetails_website')} />
          </SimpleGrid>
        )}

        <Title order={2} size="h4">{t('masterdata.contact.address')}</Title>
        {readOnly && !answer?.address ? (
          <Text c="dimmed" data-testid="empty-state">{t('masterdata.contact.address_empty')}</Text>
        ) : (
          <AddressFields value={v.address} onChange={(address) => setV((old) => ({ ...old, address }))} countries={countries.data} errors={errors}
            storedState={String(answer?.address?.state ?? '')} storedZip={String(answer?.address?.city_zip ?? '')} disabled={readOnly} optional />
        )}

        <FormFooter form={form} editing={editing} saving={save.isPending} onDone={onDone} onReload={onReload} />
      </Stack>
    </form>
  );
}
