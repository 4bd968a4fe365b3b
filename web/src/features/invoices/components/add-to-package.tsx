import { Anchor, Button, Group, Loader, Modal, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useAbility } from '../../../lib/ability-context';
import { dataProvider } from '../../../lib/data-provider';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { serverDetail } from '../../tables/components/table-errors';
import { useCreatePackage, useSetPackage } from '../api/packages';

/** The packages of point of sale `pos`, newest first. */
function usePosPackages(pos: number, enabled: boolean) {
  return useQuery({
    queryKey: ['invoices', 'pos-packages', pos],
    queryFn: ({ signal }) =>
      dataProvider
        .list('contradictionpackage', { filter: [{ field: 'pos_id', op: 'eq', value: pos }], perPage: 500, orderBy: 'contradictionpackage_id', orderDir: 'DESC' }, signal)
        .then((answer) => answer.data.data),
    enabled: enabled && pos > 0,
  });
}

interface AddToPackageProps {
  contradiction: { id: number; name: string; rowVersion: number | null };
  /** The point of sale of the invoice's contract: a package holds contradictions of one point of sale. */
  posId: number;
}

/**
 * "Add to a package" on the invoice page (issue 38): puts a contradiction
 * into an existing package of its point of sale, or into a new one, without
 * leaving the invoice. Offered only to who may change contradictions (and
 * create packages, for a new one), as the server checks.
 */
export function AddToPackage({ contradiction, posId }: AddToPackageProps) {
  const { t } = useTranslation();
  const ability = useAbility();
  const [open, setOpen] = useState(false);
  const canMove = ability.can('update', 'contradiction');
  const canCreate = ability.can('create', 'contradictionpackage');
  if (!canMove || posId <= 0) return null;
  return (
    <>
      <Button size="compact-xs" variant="light" onClick={() => setOpen(true)}>
        {t('invoices.add_to_package')}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('invoices.add_to_package_title', { name: contradiction.name })}>
        {open && <AddToPackageForm contradiction={contradiction} posId={posId} canCreate={canCreate} onDone={() => setOpen(false)} />}
      </Modal>
    </>
  );
}

function AddToPackageForm({ contradiction, posId, canCreate, onDone }: AddToPackageProps & { canCreate: boolean; onDone: () => void }) {
  const { t } = useTranslation();
  const packages = usePosPackages(posId, true);
  const [choice, setChoice] = useState<'existing' | 'new'>('existing');
  const [target, setTarget] = useState<string | null>(null);
  const [name, setName] = useState(contradiction.name);
  const [error, setError] = useState<string | null>(null);
  const create = useCreatePackage();
  const move = useSetPackage(Number(target ?? 0));
  if (packages.isPending) return <Loader size="sm" />;
  const options = (packages.data ?? []).map((p) => ({
    value: String(p.contradictionpackage_id),
    label: String(p.contradictionpackage_name ?? `#${String(p.contradictionpackage_id)}`),
  }));
  const mode = options.length === 0 ? 'new' : choice;
  const busy = create.isPending || move.isPending;
  const fail = (e: unknown) => {
    if (e instanceof ApiError && e.status === 422) setError(Object.values(e.fieldErrors())[0] ?? serverDetail(e));
    notifyError(serverDetail(e));
  };
  const save = () => {
    setError(null);
    if (mode === 'existing') {
      if (!target) return setError(t('validation.required', { field: t('invoices.package') }));
      move.mutate(
        { contradiction: { id: contradiction.id, rowVersion: contradiction.rowVersion }, into: true },
        { onSuccess: () => (notifySuccess(t('invoices.added_to_package')), onDone()), onError: fail },
      );
      return;
    }
    if (!name.trim()) return setError(t('validation.required', { field: t('invoices.package_name') }));
    create.mutate(
      { pos_id: posId, contradictionpackage_name: name.trim(), contradictionpackage_description: null, contradiction_ids: [contradiction.id] },
      { onSuccess: () => (notifySuccess(t('invoices.added_to_package')), onDone()), onError: fail },
    );
  };
  if (options.length === 0 && !canCreate) {
    return <Text size="sm">{t('invoices.no_packages_of_pos')}</Text>;
  }
  return (
    <Stack gap="sm">
      {options.length > 0 && canCreate && (
        <Radio.Group value={mode} onChange={(v) => setChoice(v === 'new' ? 'new' : 'existing')} label={t('invoices.package')}>
          <Group mt={4}>
            <Radio value="existing" label={t('invoices.existing_package')} />
            <Radio value="new" label={t('invoices.new_package_option')} />
          </Group>
        </Radio.Group>
      )}
      {mode === 'existing' ? (
        <Select
          label={t('invoices.package')}
          data={options}
          value={target}
          onChange={setTarget}
          searchable
          data-autofocus
          error={error ?? undefined}
          placeholder={t('invoices.choose_package')}
        />
      ) : (
        <TextInput label={t('invoices.package_name')} value={name} onChange={(e) => setName(e.currentTarget.value)} data-autofocus error={error ?? undefined} required />
      )}
      <Text size="xs" c="dimmed">
        {t('invoices.package_same_pos')}{' '}
        <Anchor component={Link} to={`/app/table/custom/contracdictionpackage/create?pos_id=${posId}`} size="xs">
          {t('invoices.package_more')}
        </Anchor>
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone} disabled={busy}>
          {t('form.cancel')}
        </Button>
        <Button onClick={save} loading={busy}>
          {t('invoices.add_to_package')}
        </Button>
      </Group>
    </Stack>
  );
}
