import { Button, Group, Modal, NumberInput, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useCreatePos } from '../api/create-pos';
import { useLookup } from '../api/list-lookup';
import { optionsOf } from './options';

/** The point-of-sale create modal (POST /pos), opened over the points of sale list. */
export default function PosCreateModal() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const companies = useLookup('company');
  const contacts = useLookup('contactperson');
  const create = useCreatePos();
  const [v, setV] = useState({ company: '', name: '', branch: '', external: '', year: '' as number | string, opening: '', contact: '' });
  const set = (k: keyof typeof v) => (value: string | number | null) => setV((old) => ({ ...old, [k]: value ?? '' }));
  const companyContacts = (contacts.data ?? []).filter((c) => String(c.company_id) === v.company);
  const close = () => navigate('/app/table/pos');
  const submit = () =>
    create.mutate(
      {
        company_id: Number(v.company),
        pos_name: v.name,
        pos_branchnumber: v.branch,
        pos_name_external: v.external || undefined,
        pos_first_year: Number(v.year),
        pos_opening_date: v.opening,
        contactperson_id: Number(v.contact),
      },
      {
        onSuccess: (res) => {
          notifySuccess(t('masterdata.pos.saved'));
          navigate(`/app/table/pos/view/${res.data.pos_id}`);
        },
        onError: (e) => notifyError(errorMessage(e)),
      },
    );
  return (
    <Modal opened onClose={close} title={t('masterdata.pos.new')} size="xl" closeOnClickOutside={false}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select required searchable label={t('masterdata.pos.company')} data={optionsOf(companies.data, 'company_id', ['company_name'])} value={v.company}
          onChange={(c) => setV((old) => ({ ...old, company: c ?? '', contact: '' }))} />
        <TextInput required label={t('masterdata.pos.name')} value={v.name} onChange={(e) => set('name')(e.currentTarget.value)} />
        <TextInput required label={t('masterdata.pos.branchnumber')} value={v.branch} onChange={(e) => set('branch')(e.currentTarget.value)} />
        <TextInput label={t('masterdata.pos.name_external')} value={v.external} onChange={(e) => set('external')(e.currentTarget.value)} />
        <NumberInput required label={t('masterdata.pos.first_year')} min={1900} max={2100} value={v.year} onChange={set('year')} />
        <TextInput required type="date" label={t('masterdata.pos.opening_date')} value={v.opening} onChange={(e) => set('opening')(e.currentTarget.value)} />
        <Select required searchable label={t('masterdata.pos.contactperson')} value={v.contact} onChange={set('contact')}
          data={optionsOf(companyContacts, 'contactperson_id', ['contactperson_firstname', 'contactperson_lastname'])} />
      </SimpleGrid>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={close}>
          {t('form.cancel')}
        </Button>
        <Button onClick={submit} loading={create.isPending}>
          {t('general.save')}
        </Button>
      </Group>
    </Modal>
  );
}
