import { Alert, Button, Group, NumberInput, Paper, Select, SimpleGrid, Stack, Stepper, Table, Text, TextInput, Title } from '@mantine/core';
import { IconBuildingStore, IconCheck, IconTicket } from '@tabler/icons-react';
import { type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { UnsavedChangesGuard } from '../../../components/form/unsaved-changes-guard';
import { ApiError, api, errorMessage } from '../../../lib/api-client';
import type { Row } from '../../../lib/table-definition';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useRecord } from '../../tables/api/get-record';
import { type AddressValues, addressInput, EMPTY_ADDRESS, isBlankAddress } from '../api/address';
import { useLookup } from '../api/list-lookup';
import { NEW_CUSTOMER_PARTS, type NewCustomerPart, partErrors, useCreateNewCustomer } from '../api/new-customer';
import { AddressFields, resolveCountry } from './address-fields';
import { LoadState } from './load-state';
import { optionsOf } from './options';

interface Values {
  group: { name: string; description: string };
  company: { name: string; shortname: string; buchungskreis: string };
  companyAddress: AddressValues;
  contact: { salutation: string; firstname: string; lastname: string; fn: string; email: string; phone: string };
  pos: { name: string; branch: string; year: number | string; opening: string };
}

const EMPTY: Values = {
  group: { name: '', description: '' },
  company: { name: '', shortname: '', buchungskreis: '' },
  companyAddress: EMPTY_ADDRESS,
  contact: { salutation: '', firstname: '', lastname: '', fn: '', email: '', phone: '' },
  pos: { name: '', branch: '', year: new Date().getFullYear(), opening: '' },
};

type Errors = Partial<Record<NewCustomerPart, Record<string, string>>>;

/** Whether a step's required fields are filled in (the server checks them again). */
export function stepComplete(v: Values, step: number): boolean {
  switch (step) {
    case 0:
      return v.group.name.trim() !== '';
    case 1:
      return v.company.name.trim() !== '' && v.company.shortname.trim() !== '';
    case 2:
      return v.contact.salutation !== '' && v.contact.firstname.trim() !== '' && v.contact.lastname.trim() !== '';
    case 3:
      return v.pos.name.trim() !== '' && v.pos.branch.trim() !== '' && v.pos.opening !== '' && v.pos.year !== '';
    default:
      return true;
  }
}

/**
 * /app/ticket/{id}/customer, the new-business flow of administrators: from a
 * ticket, the new customer's customer group, company with its address,
 * contact person and first point of sale in four steps and a summary; one
 * POST /tickets/{id}/customer writes them all (or nothing) and gives the
 * ticket to the new point of sale. A refused field takes the user back to
 * its step with the server's message beside it.
 */
export default function NewBusinessPage() {
  const { id = '' } = useParams();
  // The menu opens /app/ticket/new/customer: the user first picks the ticket.
  if (!/^\d+$/.test(id)) return <TicketPicker />;
  return <NewBusinessForm key={id} id={id} />;
}

/** Picks the open ticket a new customer comes from (the menu's entry to the flow). */
function TicketPicker() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [keyword, setKeyword] = useState('');
  const tickets = useQuery({
    queryKey: ['tickets', 'new-business-picker', keyword],
    queryFn: ({ signal }) =>
      api.get<{ data: Row[] }>(`/tickets?status=opened&per_page=50&keyword=${encodeURIComponent(keyword)}`, { signal }),
    placeholderData: keepPreviousData,
  });
  const options = (tickets.data?.data ?? []).map((r) => ({
    value: String(r.ticket_id),
    label: [r.ticket_name, r.board_name, r.pos_id__label].filter(Boolean).map(String).join(' · '),
  }));
  return (
    <Stack gap="md" maw={720}>
      <Title order={2}>{t('screen.new_business')}</Title>
      <Paper withBorder p="lg" radius="md">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('new_business.pick_hint')}
          </Text>
          <Select searchable autoFocus label={t('new_business.pick_ticket')} data={options} searchValue={keyword} onSearchChange={setKeyword}
            filter={({ options: all }) => all} nothingFoundMessage={tickets.isFetching ? t('general.loading') : t('new_business.no_tickets')}
            onChange={(value) => value && navigate(`/app/ticket/${value}/customer`)} />
        </Stack>
      </Paper>
    </Stack>
  );
}

function NewBusinessForm({ id }: { id: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ticket = useRecord('ticket', id);
  const salutations = useLookup('contactsalutation');
  const countries = useLookup('country');
  const create = useCreateNewCustomer();
  const [step, setStep] = useState(0);
  const [v, setV] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  // Set before leaving on purpose (after the save): the guard does not ask then.
  const released = useRef(false);

  if (!ticket.isSuccess) return <LoadState query={ticket} />;
  const row = ticket.data.data;
  const dirty = JSON.stringify(v) !== JSON.stringify(EMPTY);
  const set = <K extends keyof Values>(part: K, field: keyof Values[K]) => (value: string | number | null) =>
    setV((old) => ({ ...old, [part]: { ...old[part], [field]: value ?? '' } }));
  const text = <K extends keyof Values>(part: K, field: keyof Values[K]) => (e: { currentTarget: { value: string } }) =>
    set(part, field)(e.currentTarget.value);
  const err = (part: NewCustomerPart, field: string) => errors[part]?.[field];

  const submit = () => {
    setErrors({});
    const country = resolveCountry(countries.data, v.companyAddress.country);
    create.mutate(
      {
        ticketId: Number(id),
        row_version: Number(row.row_version ?? 0),
        customergroup: { customergroup_name: v.group.name.trim(), customergroup_description: v.group.description.trim() || undefined },
        company: {
          company_name: v.company.name.trim(),
          company_shortname: v.company.shortname.trim(),
          company_buchungskreis: v.company.buchungskreis.trim() || undefined,
          ...(isBlankAddress(v.companyAddress) ? {} : { address: addressInput(v.companyAddress, Number(country.id), null) }),
        },
        contactperson: {
          contactsalutation_id: Number(v.contact.salutation),
          contactperson_firstname: v.contact.firstname.trim(),
          contactperson_lastname: v.contact.lastname.trim(),
          contactperson_function: v.contact.fn.trim() || undefined,
          ...(v.contact.email || v.contact.phone
            ? { contactdetails: { contactdetails_email: v.contact.email.trim() || undefined, contactdetails_phone: v.contact.phone.trim() || undefined } }
            : {}),
        },
        pos: { pos_name: v.pos.name.trim(), pos_branchnumber: v.pos.branch.trim(), pos_first_year: Number(v.pos.year), pos_opening_date: v.pos.opening },
      },
      {
        onSuccess: (answer) => {
          released.current = true;
          notifySuccess(t('new_business.created', { name: v.group.name.trim() }));
          navigate(`/app/table/pos/view/${answer.pos_id}`);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 409) {
            notifyError(t('new_business.ticket_changed'));
            void ticket.refetch();
            return;
          }
          if (error instanceof ApiError && error.status === 422) {
            const found = partErrors(error);
            setErrors(found);
            const first = NEW_CUSTOMER_PARTS.findIndex((p) => found[p]);
            if (first >= 0) setStep(first);
          }
          notifyError(errorMessage(error), t('new_business.error'));
        },
      },
    );
  };

  const stepFields: ReactNode[] = [
    <SimpleGrid key="group" cols={{ base: 1, sm: 2 }}>
      <TextInput required data-autofocus label={t('masterdata.company.customergroup')} value={v.group.name} onChange={text('group', 'name')}
        error={err('customergroup', 'customergroup_name')} />
      <TextInput label={t('new_business.description')} value={v.group.description} onChange={text('group', 'description')}
        error={err('customergroup', 'customergroup_description')} />
    </SimpleGrid>,
    <Stack key="company" gap="md">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput required label={t('masterdata.company.name')} value={v.company.name} onChange={text('company', 'name')}
          error={err('company', 'company_name')} />
        <TextInput required label={t('masterdata.company.shortname')} value={v.company.shortname} onChange={text('company', 'shortname')}
          error={err('company', 'company_shortname')} />
        <TextInput label={t('masterdata.company.buchungskreis')} value={v.company.buchungskreis} onChange={text('company', 'buchungskreis')}
          error={err('company', 'company_buchungskreis')} />
      </SimpleGrid>
      <AddressFields value={v.companyAddress} onChange={(next) => setV((old) => ({ ...old, companyAddress: next }))} countries={countries.data}
        errors={errors.company} optional />
    </Stack>,
    <SimpleGrid key="contact" cols={{ base: 1, sm: 3 }}>
      <Select required label={t('masterdata.contact.salutation')} value={v.contact.salutation} onChange={set('contact', 'salutation')}
        data={optionsOf(salutations.data, 'contactsalutation_id', ['contactsalutation_name'])} error={err('contactperson', 'contactsalutation_id')} />
      <TextInput required label={t('masterdata.contact.firstname')} value={v.contact.firstname} onChange={text('contact', 'firstname')}
        error={err('contactperson', 'contactperson_firstname')} />
      <TextInput required label={t('masterdata.contact.lastname')} value={v.contact.lastname} onChange={text('contact', 'lastname')}
        error={err('contactperson', 'contactperson_lastname')} />
      <TextInput label={t('masterdata.contact.function')} value={v.contact.fn} onChange={text('contact', 'fn')}
        error={err('contactperson', 'contactperson_function')} />
      <TextInput type="email" label={t('masterdata.contact.email')} value={v.contact.email} onChange={text('contact', 'email')}
        error={err('contactperson', 'contactdetails.contactdetails_email')} />
      <TextInput label={t('masterdata.contact.phone')} value={v.contact.phone} onChange={text('contact', 'phone')}
        error={err('contactperson', 'contactdetails.contactdetails_phone')} />
    </SimpleGrid>,
    <SimpleGrid key="pos" cols={{ base: 1, sm: 2 }}>
      <TextInput required label={t('masterdata.pos.name')} value={v.pos.name} onChange={text('pos', 'name')} error={err('pos', 'pos_name')} />
      <TextInput required label={t('masterdata.pos.branchnumber')} value={v.pos.branch} onChange={text('pos', 'branch')}
        error={err('pos', 'pos_branchnumber')} />
      <NumberInput required label={t('masterdata.pos.first_year')} min={1900} max={2100} value={v.pos.year} onChange={set('pos', 'year')}
        error={err('pos', 'pos_first_year')} />
      <TextInput required type="date" label={t('masterdata.pos.opening_date')} value={v.pos.opening} onChange={text('pos', 'opening')}
        error={err('pos', 'pos_opening_date')} />
    </SimpleGrid>,
  ];
  const summary: [string, string][] = [
    [t('masterdata.company.customergroup'), v.group.name],
    [t('masterdata.company.name'), `${v.company.name} (${v.company.shortname})`],
    [t('masterdata.contact.form'), `${v.contact.firstname} ${v.contact.lastname}`.trim()],
    [t('new_business.step.pos'), `${v.pos.name} · ${v.pos.branch}`],
    [t('masterdata.pos.opening_date'), v.pos.opening],
  ];
  const labels = [t('new_business.step.group'), t('new_business.step.company'), t('new_business.step.contact'), t('new_business.step.pos'),
    t('new_business.step.review')];
  const last = labels.length - 1;
  return (
    <Stack gap="md" maw={1100}>
      <UnsavedChangesGuard dirty={dirty} released={released} />
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2}>{t('screen.new_business')}</Title>
          <Group gap={6} c="dimmed">
            <IconTicket size={16} />
            <Text size="sm">
              {t('new_business.from_ticket')}{' '}
              <Link to={`/app/table/ticket/view/${id}`}>{String(row.ticket_name ?? `#${id}`)}</Link>
              {row.pos_id__label ? ` · ${String(row.pos_id__label)}` : ''}
            </Text>
          </Group>
        </div>
      </Group>
      <Paper withBorder p="lg" radius="md">
        <Stepper active={step} onStepClick={setStep} allowNextStepsSelect={false} size="sm">
          {labels.map((label, i) => (
            <Stepper.Step key={label} label={label} color={i < last && NEW_CUSTOMER_PARTS[i] && errors[NEW_CUSTOMER_PARTS[i]] ? 'red' : undefined}>
              <Stack gap="md" pt="md">
                {i < last ? (
                  stepFields[i]
                ) : (
                  <>
                    <Alert icon={<IconBuildingStore size={18} />} color="blue" variant="light">
                      {t('new_business.review_hint')}
                    </Alert>
                    <Table withRowBorders={false} maw={640} aria-label={t('new_business.step.review')}>
                      <Table.Tbody>
                        {summary.map(([k, value]) => (
                          <Table.Tr key={k}>
                            <Table.Th w={220}>{k}</Table.Th>
                            <Table.Td>{value}</Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </>
                )}
              </Stack>
            </Stepper.Step>
          ))}
        </Stepper>
        <Group justify="space-between" mt="xl">
          <Button variant="default" onClick={() => (step === 0 ? navigate(-1) : setStep(step - 1))}>
            {step === 0 ? t('form.cancel') : t('new_business.back')}
          </Button>
          {step < last ? (
            <Button onClick={() => setStep(step + 1)} disabled={!stepComplete(v, step)}>
              {t('new_business.next')}
            </Button>
          ) : (
            <Button leftSection={<IconCheck size={16} />} onClick={submit} loading={create.isPending}
              disabled={![0, 1, 2, 3].every((s) => stepComplete(v, s))}>
              {t('new_business.create')}
            </Button>
          )}
        </Group>
      </Paper>
    </Stack>
  );
}
